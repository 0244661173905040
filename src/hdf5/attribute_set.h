// What the translation keeps of an object's attributes (the .zattrs object and the facts the
// rules look at), whichever reader produced it. Internal to the HDF5 translator.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kerchunk/json/json_value.h"

namespace kerchunk::hdf5::internal {

/// What the translation needs from an object's attributes.
struct AttributeSet {
  /// The user attributes, as a JSON object (kerchunk's .zattrs content without
  /// _ARRAY_DIMENSIONS).
  json::Value attrs = json::Value::MakeObject();
  /// Some attribute name contains "_Netcdf4": netCDF wrote this variable (kerchunk then leaves
  /// fill_value null unless _FillValue exists).
  bool netcdf_variable = false;
  /// A _FillValue attribute exists.
  bool has_fill_value = false;
  /// The "units" attribute when it is a string (kerchunk's datetime test looks for "since").
  std::optional<std::string> units;
  /// The CLASS attribute is the string "DIMENSION_SCALE" (H5DSis_scale's test).
  bool is_dimension_scale = false;
  /// The object has a DIMENSION_LIST attribute (dimension scales attached).
  bool has_dimension_list = false;
  /// Attributes left out because JSON cannot hold them, e.g. "attribute 'x': compound type".
  std::vector<std::string> skipped;
};

/// `bytes` as valid UTF-8: invalid sequences become U+FFFD (HDF5 strings are not checked by
/// the library, and JSON text must be valid Unicode).
std::string ToValidUtf8(std::string_view bytes);

/// h5netcdf's hidden attributes, which kerchunk does not transfer (CLASS is read but not
/// transferred).
bool IsHiddenAttribute(std::string_view name);

}  // namespace kerchunk::hdf5::internal
