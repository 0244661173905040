#include "hdf5/attributes_transfer.h"

#include <fmt/format.h>

#include <array>
#include <cstring>
#include <string_view>
#include <vector>

#include "hdf5/datatype_mapping.h"
#include "hdf5/h5_library.h"
#include "hdf5/h5_strings.h"

namespace kerchunk::hdf5::internal {
namespace {

// Enums and bitfields: raw values in the file type, decoded by hand (HDF5 converts neither to
// plain integers in every version).
Result<std::vector<json::Value>> ReadRawIntegers(hid_t attr, hid_t type, size_t count,
                                                 bool as_bool) {
  Handle base(H5Tget_class(type) == H5T_ENUM ? H5Tget_super(type) : H5Tcopy(type));
  if (!base.valid()) return LibraryError("cannot inspect the attribute type");
  const size_t size = H5Tget_size(type);
  if (size == 0 || size > 8) return UnsupportedError("integer of {} bytes", size);
  std::vector<unsigned char> raw(size * count);
  if (count && H5Aread(attr, type, raw.data()) < 0) return LibraryError("cannot read");
  const bool big = H5Tget_order(base.get()) == H5T_ORDER_BE;
  const bool is_signed = H5Tget_class(base.get()) == H5T_INTEGER &&
                         H5Tget_sign(base.get()) == H5T_SGN_2 && H5Tget_class(type) != H5T_BITFIELD;
  std::vector<json::Value> out;
  out.reserve(count);
  const auto bytes = std::as_bytes(std::span(raw));
  for (size_t i = 0; i < count; ++i) {
    out.push_back(RawIntegerAttributeValue(bytes.subspan(i * size, size), big, is_signed, as_bool));
  }
  return out;
}

template <typename T>
Result<std::vector<T>> ReadConverted(hid_t attr, hid_t mem_type, size_t count) {
  std::vector<T> values(count);
  if (count && H5Aread(attr, mem_type, values.data()) < 0) return LibraryError("cannot read");
  return values;
}

Result<std::vector<json::Value>> ReadNumbers(hid_t attr, hid_t type, size_t count, bool bool_enum) {
  std::vector<json::Value> out;
  switch (H5Tget_class(type)) {
    case H5T_FLOAT: {
      KERCHUNK_ASSIGN_OR_RETURN(auto v, ReadConverted<double>(attr, H5T_NATIVE_DOUBLE, count));
      for (double d : v) out.push_back(json::Value::Double(d));
      return out;
    }
    case H5T_INTEGER:
      if (H5Tget_sign(type) == H5T_SGN_2) {
        KERCHUNK_ASSIGN_OR_RETURN(auto v, ReadConverted<long long>(attr, H5T_NATIVE_LLONG, count));
        for (long long x : v) out.push_back(json::Value::Int(x));
      } else {
        KERCHUNK_ASSIGN_OR_RETURN(
            auto v, ReadConverted<unsigned long long>(attr, H5T_NATIVE_ULLONG, count));
        for (unsigned long long x : v) out.push_back(json::Value::Uint(x));
      }
      return out;
    default:
      return ReadRawIntegers(attr, type, count, bool_enum);
  }
}

struct Shape {
  H5S_class_t space_class = H5S_NO_CLASS;
  std::vector<uint64_t> dims;
  size_t count = 0;
};

Result<Shape> ReadShape(hid_t attr) {
  KERCHUNK_ASSIGN_OR_RETURN(Handle space, Check(H5Aget_space(attr), "cannot read the dataspace"));
  Shape s;
  s.space_class = H5Sget_simple_extent_type(space.get());
  const int rank = H5Sget_simple_extent_ndims(space.get());
  if (rank < 0) return LibraryError("cannot read the dataspace");
  std::vector<hsize_t> dims(rank);
  if (rank > 0) H5Sget_simple_extent_dims(space.get(), dims.data(), nullptr);
  s.dims.assign(dims.begin(), dims.end());
  const hssize_t n = H5Sget_simple_extent_npoints(space.get());
  s.count = s.space_class == H5S_NULL || n < 0 ? 0 : static_cast<size_t>(n);
  return s;
}

// The value kerchunk stores for one attribute; nullopt when it leaves the attribute out.
Result<std::optional<json::Value>> ConvertAttribute(hid_t attr, std::string_view name,
                                                    AttributeSet& set) {
  KERCHUNK_ASSIGN_OR_RETURN(Shape shape, ReadShape(attr));
  if (shape.space_class == H5S_NULL) return std::optional(json::Value::String(""));
  KERCHUNK_ASSIGN_OR_RETURN(Handle type, Check(H5Aget_type(attr), "cannot read the datatype"));
  const H5T_class_t cls = H5Tget_class(type.get());
  const bool scalar = shape.space_class == H5S_SCALAR;
  std::vector<json::Value> values;
  if (cls == H5T_STRING) {
    KERCHUNK_ASSIGN_OR_RETURN(std::vector<std::string> strings,
                              ReadStrings(attr, type.get(), shape.count, /*is_attribute=*/true));
    if (scalar)
      return ScalarStringAttribute(std::move(strings.at(0)), H5Tis_variable_str(type.get()) == 0);
    for (std::string& s : strings)
      values.push_back(json::Value::String(json::ToValidUtf8(std::move(s))));
  } else if (cls == H5T_INTEGER || cls == H5T_FLOAT || cls == H5T_ENUM || cls == H5T_BITFIELD) {
    bool bool_enum = false;
    if (cls == H5T_ENUM) {
      KERCHUNK_ASSIGN_OR_RETURN(NumpyType t, DescribeType(type.get()));
      bool_enum = t.type_class == TypeClass::kBool;
    }
    KERCHUNK_ASSIGN_OR_RETURN(values, ReadNumbers(attr, type.get(), shape.count, bool_enum));
  } else {
    set.skipped.push_back(fmt::format("attribute '{}': {}", name, TypeClassName(cls)));
    return std::optional<json::Value>();
  }
  return ShapeAttributeValues(name, std::move(values), shape.dims, shape.count);
}

Status ReadOne(hid_t object, const char* name, AttributeSet& set) {
  const std::string_view n(name);
  if (!NoteAttributeName(n, set)) return OkStatus();
  Handle attr(H5Aopen(object, name, H5P_DEFAULT));
  if (!attr.valid()) {
    set.skipped.push_back(
        fmt::format("attribute '{}': {}", n, LibraryError("unreadable").message()));
    return OkStatus();
  }
  auto value = ConvertAttribute(attr.get(), n, set);
  if (!value.ok()) {
    set.skipped.push_back(fmt::format("attribute '{}': {}", n, value.status().message()));
    H5Eclear2(H5E_DEFAULT);
    return OkStatus();
  }
  StoreAttribute(n, std::move(*value), set);
  return OkStatus();
}

}  // namespace

Result<AttributeSet> ReadAttributes(hid_t object) {
  AttributeSet set;
  struct Context {
    AttributeSet* set;
    Status status;
  } context{&set, OkStatus()};
  auto visit = [](hid_t loc, const char* name, const H5A_info_t*, void* data) -> herr_t {
    auto* c = static_cast<Context*>(data);
    c->status = ReadOne(loc, name, *c->set);
    return c->status.ok() ? 0 : -1;
  };
  hsize_t index = 0;
  if (H5Aiterate2(object, H5_INDEX_NAME, H5_ITER_INC, &index, visit, &context) < 0) {
    if (!context.status.ok()) return context.status;
    return LibraryError("cannot list the attributes");
  }
  return set;
}

}  // namespace kerchunk::hdf5::internal
