// Compound types as zarr v2 structured dtypes (DescribeCompound in numpy_type.h). zarr reads a
// chunk with np.frombuffer(bytes, dtype): the dtype list must describe the file's element byte
// for byte, so only packed layouts qualify; a padded one (a C struct with alignment gaps) would
// need per-field offsets, which a zarr v2 dtype list cannot say.
#include <fmt/format.h>

#include "hdf5/numpy_type.h"
#include "kerchunk/util/checked_math.h"

namespace kerchunk::hdf5::internal {
namespace {

// h5py reads a compound of exactly "r" and "i", one IEEE float type, as numpy complex.
bool IsComplexPair(size_t size, const std::vector<StructuredField>& fields) {
  if (fields.size() != 2 || fields[0].name != "r" || fields[1].name != "i") return false;
  const NumpyType& r = fields[0].type;
  const NumpyType& i = fields[1].type;
  if (r.type_class != TypeClass::kNumeric || r.dtype != i.dtype || r.dtype.size() < 3) {
    return false;
  }
  if (r.dtype[1] != 'f' || (r.file_size != 4 && r.file_size != 8)) return false;
  return fields[0].array_dims.empty() && fields[1].array_dims.empty() && fields[0].offset == 0 &&
         fields[1].offset == r.file_size && size == 2 * r.file_size;
}

// The dtype of one field as it goes into the list; null, with `why` set, when it has none.
json::Value FieldDtype(const StructuredField& field, std::string& why) {
  const NumpyType& t = field.type;
  switch (t.type_class) {
    case TypeClass::kNumeric:
    case TypeClass::kBool:
    case TypeClass::kFixedString:
      return json::Value::String(t.dtype);
    case TypeClass::kStructured:
      if (field.array_dims.empty()) return t.dtype_json;
      why = "an array of compounds";
      return json::Value::Null();
    case TypeClass::kVlenString:
      why = "a variable-length string";
      return json::Value::Null();
    case TypeClass::kVlenSequence:
      why = "a variable-length sequence";
      return json::Value::Null();
    case TypeClass::kUnsupported:
      why = t.unsupported_reason;
      return json::Value::Null();
  }
  why = "of an unknown kind";
  return json::Value::Null();
}

}  // namespace

NumpyType DescribeCompound(size_t size, const std::vector<StructuredField>& fields) {
  if (fields.empty()) return MakeUnsupportedType(size, "compound type without members");
  if (IsComplexPair(size, fields)) {
    const std::string& f = fields[0].type.dtype;
    return MakeNumericType(size, fmt::format("{}c{}", f[0], 2 * fields[0].type.file_size),
                           "complex type");
  }
  json::Value list = json::Value::MakeArray();
  uint64_t next = 0;  // where a packed layout puts the next field
  for (const StructuredField& field : fields) {
    if (field.name.empty())
      return MakeUnsupportedType(size, "compound type: a member without name");
    std::string why;
    json::Value dtype = FieldDtype(field, why);
    if (!why.empty()) {
      return MakeUnsupportedType(size,
                                 fmt::format("compound type: member '{}' is {}", field.name, why));
    }
    if (field.offset != next) {
      return MakeUnsupportedType(
          size, fmt::format("compound type with padding: member '{}' at byte {}, packed at {}",
                            field.name, field.offset, next));
    }
    std::optional<uint64_t> bytes = field.type.file_size;
    json::Value entry = json::Value::MakeArray({json::Value::String(field.name), std::move(dtype)});
    if (!field.array_dims.empty()) {
      json::Value shape = json::Value::MakeArray();
      for (uint64_t d : field.array_dims) {
        shape.Push(json::Value::Uint(d));
        if (bytes) bytes = CheckedMul(*bytes, d);
      }
      entry.Push(std::move(shape));
    }
    const std::optional<uint64_t> end = bytes ? CheckedAdd(next, *bytes) : std::nullopt;
    if (!end) return MakeUnsupportedType(size, "compound type larger than 2^64 bytes");
    list.Push(std::move(entry));
    next = *end;
  }
  if (next != size) {
    return MakeUnsupportedType(
        size, fmt::format("compound type with padding: {} bytes of members in {}", next, size));
  }
  NumpyType out;
  out.type_class = TypeClass::kStructured;
  out.dtype = list.Dump();
  out.dtype_json = std::move(list);
  out.file_size = size;
  return out;
}

}  // namespace kerchunk::hdf5::internal
