// Helpers shared by both attribute readers; see attribute_set.h.
#include "hdf5/attribute_set.h"

#include <array>

namespace kerchunk::hdf5::internal {
namespace {

constexpr std::array<std::string_view, 8> kHiddenAttributes = {
    "REFERENCE_LIST",      "CLASS",       "DIMENSION_LIST", "NAME", "_Netcdf4Dimid",
    "_Netcdf4Coordinates", "_nc3_strict", "_NCProperties"};

}  // namespace

bool IsHiddenAttribute(std::string_view name) {
  for (std::string_view h : kHiddenAttributes) {
    if (h == name) return true;
  }
  return false;
}

bool NoteAttributeName(std::string_view name, AttributeSet& set) {
  if (name.find("_Netcdf4") != std::string_view::npos) set.netcdf_variable = true;
  if (name == "_FillValue") set.has_fill_value = true;
  if (name == "DIMENSION_LIST") set.has_dimension_list = true;
  return !IsHiddenAttribute(name) || name == "CLASS";
}

std::optional<json::Value> ScalarStringAttribute(std::string value, bool fixed_length) {
  std::string s = json::ToValidUtf8(std::move(value));
  if (fixed_length && s.empty()) s.push_back(' ');
  if (s == "DIMENSION_SCALE") return std::nullopt;
  return json::Value::String(std::move(s));
}

namespace {

json::Value Nest(std::vector<json::Value>& flat, std::span<const uint64_t> dims, size_t dim,
                 size_t& next) {
  json::Value list = json::Value::MakeArray();
  for (uint64_t i = 0; i < dims[dim]; ++i) {
    if (dim + 1 == dims.size()) {
      list.Push(std::move(flat[next++]));
    } else {
      list.Push(Nest(flat, dims, dim + 1, next));
    }
  }
  return list;
}

}  // namespace

std::optional<json::Value> ShapeAttributeValues(std::string_view name,
                                                std::vector<json::Value> values,
                                                std::span<const uint64_t> dims, uint64_t count) {
  if (name == "_FillValue") return std::nullopt;
  if (count == 1) {
    if (values[0].is_string() && values[0].as_string() == "DIMENSION_SCALE") return std::nullopt;
    return std::move(values[0]);
  }
  if (dims.empty() || count == 0) return json::Value::MakeArray();
  size_t next = 0;
  return Nest(values, dims, 0, next);
}

json::Value RawIntegerAttributeValue(std::span<const std::byte> element, bool big_endian,
                                     bool is_signed, bool as_bool) {
  uint64_t u = 0;
  for (size_t k = 0; k < element.size(); ++k) {
    const size_t byte = big_endian ? k : element.size() - 1 - k;
    u = (u << 8) | static_cast<uint8_t>(element[byte]);
  }
  if (as_bool) return json::Value::Bool(u != 0);
  if (is_signed) {
    const unsigned shift = 64 - 8 * static_cast<unsigned>(element.size());
    return json::Value::Int(static_cast<int64_t>(u << shift) >> shift);
  }
  return json::Value::Uint(u);
}

void StoreAttribute(std::string_view name, std::optional<json::Value> value, AttributeSet& set) {
  if (name == "CLASS") {
    // Not transferred; H5DSis_scale's test.
    set.is_dimension_scale =
        !value || (value->is_string() && value->as_string() == "DIMENSION_SCALE");
    return;
  }
  if (name == "units" && value && value->is_string()) set.units = value->as_string();
  if (value) set.attrs.Set(std::string(name), std::move(*value));
}

}  // namespace kerchunk::hdf5::internal
