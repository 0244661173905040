// NetCDF-3 attributes as zarr attributes (.zattrs JSON) and fill values (.zarray fill_value).
//
// Values are converted as netCDF4-python presents them to xarray, so that xarray reading the
// references through zarr sees what it sees reading the file with netCDF4. This differs from
// Python kerchunk's NetCDF3ToZarr, which writes every non-text attribute as its Python str()
// ("[0. 1.]" for a two-float valid_range), and takes the fill value from missing_value; it
// follows kerchunk's HDF5 translator instead (typed values, _FillValue as fill_value), so NetCDF-3
// and NetCDF-4 copies of the same data give the same metadata.
#pragma once

#include <cstdint>
#include <vector>

#include "kerchunk/json/json_value.h"
#include "kerchunk/netcdf3/header.h"

namespace kerchunk::netcdf3 {

/// Value `i` (< a.count) of a numeric attribute as a JSON number: an integer for integer types,
/// a double for float and double (NaN and infinities included). Not for kChar.
json::Value AttributeElementJson(const Attribute& a, uint64_t i);

/// The JSON value of an attribute: char values as a string (decoded as UTF-8 with invalid
/// sequences replaced by U+FFFD and NUL bytes removed, as netCDF4-python does); one numeric value
/// as a number; several (or none) as a list of numbers.
json::Value AttributeJson(const Attribute& a);

/// A JSON object of attributes by name (a later duplicate name wins).
json::Value AttributesJson(const std::vector<Attribute>& attributes);

/// The .zarray fill_value of a variable, encoded as zarr encodes it: its _FillValue attribute
/// when that holds exactly one value of the variable's own type (what netCDF-C writes); null
/// otherwise, including when there is no _FillValue (xarray reading a NetCDF-3 file with netCDF4
/// masks nothing then either).
json::Value FillValueJson(const Variable& v);

/// The .zattrs of a variable: its attributes without the _FillValue that became the fill value,
/// and _ARRAY_DIMENSIONS, the names of its dimensions (xarray's zarr convention).
json::Value VariableAttributesJson(const Header& header, const Variable& v);

}  // namespace kerchunk::netcdf3
