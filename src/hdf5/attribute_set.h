// What the translation keeps of an object's attributes (the .zattrs object and the facts the
// rules look at), whichever reader produced it. Internal to the HDF5 translator.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
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

/// h5netcdf's hidden attributes, which kerchunk does not transfer (CLASS is read but not
/// transferred).
bool IsHiddenAttribute(std::string_view name);

// The steps of kerchunk's _transfer_attrs both attribute readers share; each reader only
// decodes the stored values (libhdf5's H5Aread or the native decoding).

/// Notes what the name alone tells (_Netcdf4*, _FillValue, DIMENSION_LIST) in `set`; whether the
/// attribute's value is needed (not hidden, or CLASS).
bool NoteAttributeName(std::string_view name, AttributeSet& set);

/// A scalar string attribute as kerchunk stores it: valid UTF-8, " " for an empty fixed-length
/// string (h5py's bytes, decoded "or ' '"), left out (nullopt) when it is "DIMENSION_SCALE".
std::optional<json::Value> ScalarStringAttribute(std::string value, bool fixed_length);

/// An attribute's decoded values (`count` of them, row-major over `dims`) as kerchunk stores
/// them: left out for _FillValue (a numpy value kerchunk strips) and for a one-element
/// "DIMENSION_SCALE"; one element as a scalar; no dims or no element as []; else nested lists
/// as numpy's tolist().
std::optional<json::Value> ShapeAttributeValues(std::string_view name,
                                                std::vector<json::Value> values,
                                                std::span<const uint64_t> dims, uint64_t count);

/// One enum or bitfield element, stored in `element` in its byte order, as the JSON value of
/// its integer (sign-extended when `is_signed`), or a boolean for h5py's boolean enum.
json::Value RawIntegerAttributeValue(std::span<const std::byte> element, bool big_endian,
                                     bool is_signed, bool as_bool);

/// Records an attribute's converted value in `set`: CLASS only sets is_dimension_scale, a
/// string "units" is kept for the datetime rule, other values go to `attrs`.
void StoreAttribute(std::string_view name, std::optional<json::Value> value, AttributeSet& set);

}  // namespace kerchunk::hdf5::internal
