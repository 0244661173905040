// The type and fill value rules both HDF5 readers share; see numpy_type.h.
#include "hdf5/numpy_type.h"

#include <fmt/format.h>

#include <cmath>

#include "kerchunk/refs/zarr_metadata.h"
#include "kerchunk/util/base64.h"

namespace kerchunk::hdf5::internal {

NumpyType MakeUnsupportedType(size_t size, std::string reason) {
  NumpyType out;
  out.type_class = TypeClass::kUnsupported;
  out.file_size = size;
  out.unsupported_reason = std::move(reason);
  return out;
}

NumpyType MakeNumericType(size_t size, std::string dtype, std::string_view what) {
  if (dtype.empty()) {
    return MakeUnsupportedType(size,
                               fmt::format("{} of {} bytes with no numpy equivalent", what, size));
  }
  NumpyType out;
  out.type_class = TypeClass::kNumeric;
  out.dtype = std::move(dtype);
  out.file_size = size;
  return out;
}

NumpyType MakeBoolType() {
  NumpyType out;
  out.type_class = TypeClass::kBool;
  out.dtype = "|b1";
  out.file_size = 1;
  return out;
}

std::string LittleEndianDtype(const std::string& dtype) {
  if (dtype.size() > 1 && dtype[0] == '>') return "<" + dtype.substr(1);
  return dtype;
}

json::Value StringFillValue(std::string_view raw) {
  while (!raw.empty() && raw.back() == '\0') raw.remove_suffix(1);
  return json::Value::String(Base64Encode(raw.empty() ? std::string_view(" ") : raw));
}

json::Value EncodeTypedFillValue(std::string_view raw, const NumpyType& type) {
  switch (type.type_class) {
    case TypeClass::kFixedString:
      return StringFillValue(raw);
    case TypeClass::kStructured:
      return json::Value::String(Base64Encode(raw.substr(0, type.file_size)));
    default:
      return EncodeFillValue(raw, type.dtype);
  }
}

Result<json::Value> KerchunkFillValue(const NumpyType& type, const AttributeSet& attributes,
                                      const FillValueSource& hdf5_fill,
                                      const FillValueSource& attribute_fill,
                                      std::vector<std::string>& warnings, const std::string& path) {
  const TypeClass cls = type.type_class;
  if (cls == TypeClass::kVlenString || cls == TypeClass::kVlenSequence) return json::Value::Null();
  json::Value fill;
  const bool datetime = attributes.units && attributes.units->find("since") != std::string::npos;
  if (cls == TypeClass::kFixedString) {
    KERCHUNK_ASSIGN_OR_RETURN(fill, hdf5_fill());
    if (fill.is_null()) fill = StringFillValue("");
  } else if (!datetime && !attributes.netcdf_variable) {
    KERCHUNK_ASSIGN_OR_RETURN(fill, hdf5_fill());
  }
  if (!attributes.has_fill_value) return fill;
  auto from_attribute = attribute_fill();
  if (from_attribute.ok()) return std::move(*from_attribute);
  warnings.push_back(
      fmt::format("dataset /{}: fill_value null: {}", path, from_attribute.status().message()));
  return json::Value::Null();
}

bool IsCompoundNumpyType(const NumpyType& type) {
  return type.type_class == TypeClass::kStructured ||
         (type.type_class == TypeClass::kNumeric && type.dtype.size() > 1 && type.dtype[1] == 'c');
}

bool FitsIntegerDtype(double v, std::string_view dtype) {
  if (!std::isfinite(v) || std::floor(v) != v) return false;
  const auto size = DtypeItemSize(dtype).value_or(8);
  const bool is_signed = dtype.size() > 1 && dtype[1] == 'i';
  const double bits = 8.0 * static_cast<double>(size);
  const double lo = is_signed ? -std::pow(2.0, bits - 1) : 0.0;
  const double hi = is_signed ? std::pow(2.0, bits - 1) - 1 : std::pow(2.0, bits) - 1;
  return v >= lo && v <= hi;
}

}  // namespace kerchunk::hdf5::internal
