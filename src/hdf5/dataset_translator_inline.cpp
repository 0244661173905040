// OnUnsupported::kInline: the values of a variable no zarr codec can read from the file are
// decoded by libhdf5 and stored in the references as one little-endian numpy chunk. Compound
// types become numpy structured dtypes ([["name", "<f4"], ...]), which zarr v2 accepts.
#include <fmt/format.h>

#include <vector>

#include "hdf5/dataset_translator.h"
#include "hdf5/h5_library.h"
#include "hdf5/h5_strings.h"

namespace kerchunk::hdf5::internal {
namespace {

// A memory type whose bytes are numpy's for `dtype`.
struct MemoryLayout {
  Handle type;
  json::Value dtype;  // a string, or a structured dtype list
};

Result<MemoryLayout> NumpyLayout(hid_t file_type);

// Numbers stored in a layout numpy lacks (an n-bit integer, a float with a custom exponent, an
// enum over such an integer): libhdf5 converts them to the standard type of the same size.
MemoryLayout StandardLayout(hid_t file_type, H5T_class_t cls) {
  const size_t size = H5Tget_size(file_type);
  if (cls == H5T_FLOAT) {
    return MemoryLayout{Handle(H5Tcopy(size <= 4 ? H5T_IEEE_F32LE : H5T_IEEE_F64LE)),
                        json::Value::String(size <= 4 ? "<f4" : "<f8")};
  }
  Handle base(cls == H5T_ENUM ? H5Tget_super(file_type) : H5Tcopy(file_type));
  const bool is_signed =
      cls != H5T_BITFIELD && base.valid() && H5Tget_sign(base.get()) == H5T_SGN_2;
  const int index = size <= 1 ? 0 : size <= 2 ? 1 : size <= 4 ? 2 : 3;
  const hid_t kSigned[] = {H5T_STD_I8LE, H5T_STD_I16LE, H5T_STD_I32LE, H5T_STD_I64LE};
  const hid_t kUnsigned[] = {H5T_STD_U8LE, H5T_STD_U16LE, H5T_STD_U32LE, H5T_STD_U64LE};
  const int bytes = 1 << index;
  return MemoryLayout{Handle(H5Tcopy(is_signed ? kSigned[index] : kUnsigned[index])),
                      json::Value::String(fmt::format("{}{}{}", bytes == 1 ? '|' : '<',
                                                      is_signed ? 'i' : 'u', bytes))};
}

Result<MemoryLayout> CompoundLayout(hid_t file_type) {
  const int members = H5Tget_nmembers(file_type);
  if (members <= 0) return UnsupportedError("compound type without members");
  std::vector<MemoryLayout> layouts;
  std::vector<std::string> names;
  size_t total = 0;
  for (int i = 0; i < members; ++i) {
    Handle member(H5Tget_member_type(file_type, static_cast<unsigned>(i)));
    char* name = H5Tget_member_name(file_type, static_cast<unsigned>(i));
    if (!member.valid() || !name) return LibraryError("cannot inspect a compound member");
    names.emplace_back(name);
    H5free_memory(name);
    KERCHUNK_ASSIGN_OR_RETURN(MemoryLayout layout, NumpyLayout(member.get()));
    total += H5Tget_size(layout.type.get());
    layouts.push_back(std::move(layout));
  }
  KERCHUNK_ASSIGN_OR_RETURN(Handle packed, Check(H5Tcreate(H5T_COMPOUND, total), "compound"));
  json::Value dtype = json::Value::MakeArray();
  size_t offset = 0;
  for (size_t i = 0; i < layouts.size(); ++i) {
    if (H5Tinsert(packed.get(), names[i].c_str(), offset, layouts[i].type.get()) < 0) {
      return LibraryError("cannot build the compound memory type");
    }
    offset += H5Tget_size(layouts[i].type.get());
    json::Value field = json::Value::MakeArray({json::Value::String(names[i])});
    if (layouts[i].dtype.is_array() && layouts[i].dtype.as_array().size() == 2 &&
        layouts[i].dtype.as_array()[1].is_array() && !layouts[i].dtype.as_array()[0].is_array()) {
      // A sub-array member: ["name", base dtype, shape].
      field.Push(layouts[i].dtype.as_array()[0]);
      field.Push(layouts[i].dtype.as_array()[1]);
    } else {
      field.Push(layouts[i].dtype);
    }
    dtype.Push(std::move(field));
  }
  return MemoryLayout{std::move(packed), std::move(dtype)};
}

// Array-typed compound members: numpy writes them as (base dtype, shape); represented here as
// a two-element list [base, [dims]] that CompoundLayout unfolds into the field.
Result<MemoryLayout> ArrayLayout(hid_t file_type) {
  Handle base(H5Tget_super(file_type));
  const int rank = H5Tget_array_ndims(file_type);
  if (!base.valid() || rank <= 0) return LibraryError("cannot inspect the array type");
  std::vector<hsize_t> dims(static_cast<size_t>(rank));
  H5Tget_array_dims2(file_type, dims.data());
  KERCHUNK_ASSIGN_OR_RETURN(MemoryLayout inner, NumpyLayout(base.get()));
  if (!inner.dtype.is_string()) return UnsupportedError("array of a structured type");
  KERCHUNK_ASSIGN_OR_RETURN(
      Handle mem,
      Check(H5Tarray_create2(inner.type.get(), static_cast<unsigned>(rank), dims.data()),
            "array memory type"));
  json::Value shape = json::Value::MakeArray();
  for (hsize_t d : dims) shape.Push(json::Value::Uint(d));
  return MemoryLayout{std::move(mem), json::Value::MakeArray({inner.dtype, shape})};
}

Result<MemoryLayout> NumpyLayout(hid_t file_type) {
  const H5T_class_t cls = H5Tget_class(file_type);
  switch (cls) {
    case H5T_INTEGER:
    case H5T_FLOAT:
    case H5T_ENUM:
    case H5T_BITFIELD: {
      KERCHUNK_ASSIGN_OR_RETURN(NumpyType t, DescribeType(file_type));
      if (t.type_class == TypeClass::kUnsupported) return StandardLayout(file_type, cls);
      return MemoryLayout{Handle(LittleEndianMemoryType(file_type)),
                          json::Value::String(LittleEndianDtype(t.dtype))};
    }
    case H5T_STRING: {
      if (H5Tis_variable_str(file_type) != 0) {
        return UnsupportedError("variable-length string inside a structured type");
      }
      return MemoryLayout{Handle(H5Tcopy(file_type)),
                          json::Value::String(fmt::format("|S{}", H5Tget_size(file_type)))};
    }
    case H5T_OPAQUE:
      return MemoryLayout{Handle(H5Tcopy(file_type)),
                          json::Value::String(fmt::format("|V{}", H5Tget_size(file_type)))};
    case H5T_COMPOUND:
      return CompoundLayout(file_type);
    case H5T_ARRAY:
      return ArrayLayout(file_type);
    default:
      return UnsupportedError("{} has no numpy layout", TypeClassName(cls));
  }
}

}  // namespace

Result<std::string> ReadDecodedValues(hid_t dataset, hid_t file_type, uint64_t count,
                                      uint64_t max_bytes, ZarrArrayMeta& meta) {
  KERCHUNK_ASSIGN_OR_RETURN(MemoryLayout layout, NumpyLayout(file_type));
  if (!layout.dtype.is_string() && H5Tget_class(file_type) != H5T_COMPOUND) {
    return UnsupportedError("array type has no zarr dtype");
  }
  const uint64_t item = H5Tget_size(layout.type.get());
  if (item != 0 && count > max_bytes / item) {
    return UnsupportedError("decoded size {} bytes exceeds the inline limit of {} bytes",
                            count * item, max_bytes);
  }
  std::string data(count * item, '\0');
  if (count &&
      H5Dread(dataset, layout.type.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, data.data()) < 0) {
    // Typically a filter whose plugin this libhdf5 does not have.
    return LibraryError("libhdf5 cannot decode the values", StatusCode::kUnsupported);
  }
  if (layout.dtype.is_string()) {
    meta.dtype = layout.dtype.as_string();
    meta.dtype_json = json::Value();
  } else {
    meta.dtype = layout.dtype.Dump();
    meta.dtype_json = layout.dtype;
  }
  meta.fill_value = json::Value::Null();
  meta.filters = json::Value::Null();
  return data;
}

}  // namespace kerchunk::hdf5::internal
