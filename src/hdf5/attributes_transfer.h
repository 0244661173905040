// Attributes of an HDF5 group or dataset as Python kerchunk's _transfer_attrs turns them into a
// zarr .zattrs object: strings decoded, numeric arrays as (nested) lists, one-element arrays as
// scalars, netCDF/HDF5 bookkeeping attributes left out. Internal to the HDF5 translator.
#pragma once

#include <hdf5.h>

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kerchunk/json/json_value.h"
#include "kerchunk/util/status.h"

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

/// Reads every attribute of `object`. Unreadable or unrepresentable attributes are listed in
/// `skipped` rather than failing; only a failure to list the attributes at all is an error.
Result<AttributeSet> ReadAttributes(hid_t object);

/// `bytes` as valid UTF-8: invalid sequences become U+FFFD (HDF5 strings are not checked by
/// the library, and JSON text must be valid Unicode).
std::string ToValidUtf8(std::string_view bytes);

}  // namespace kerchunk::hdf5::internal
