// Attributes that change the values a CF reader decodes (xarray's CF decoding, netCDF4-python's
// auto mask and scale). A combined index keeps one .zattrs per variable, the first part's, so
// these must agree in every part of a concatenated variable or later parts read wrongly.
#pragma once

#include <array>
#include <string>
#include <string_view>
#include <vector>

#include "combine/part_view.h"

namespace kerchunk::internal {

/// The value-changing attributes, in the order they are compared and reported.
inline constexpr std::array<std::string_view, 10> kValueAttributes = {
    "scale_factor", "add_offset",  "_FillValue", "missing_value", "valid_min",
    "valid_max",    "valid_range", "_Unsigned",  "calendar",      "units"};

/// One attribute of one variable that differs from the first part's. Values are shown as JSON,
/// with a note where the kinds differ ("0.10000000149011612 (0.1 as a 32-bit float)").
struct AttributeConflict {
  std::string variable;
  std::string attribute;
  bool zarray_fill = false;  ///< _FillValue as the .zarray fill_value (not an attribute)
  std::string value;         ///< this part's value, "absent" when it has none
  std::string first_value;
};

/// Same value and same JSON number kind (an integer never equals a float: -999 and -999.0 are
/// attributes of different types); arrays element by element; NaN equals NaN.
bool SameAttributeValue(const json::Value& a, const json::Value& b);

/// Every value attribute of variable `path` that differs between `part` and `first`, the
/// .zarray fill_value included (as _FillValue, which HDF5 scans keep only there). `skip` lists
/// attributes combine handles otherwise (the coordinate's units and calendar are converted).
std::vector<AttributeConflict> FindAttributeConflicts(const PartView& first, const PartView& part,
                                                      const std::string& path,
                                                      const std::vector<std::string_view>& skip);

/// The error for the first conflict of `part`: one line naming the part, the variable, the
/// attribute and both values.
Status AttributeConflictError(const PartView& first, const PartView& part,
                              const AttributeConflict& conflict);

/// The warning for keeping the first part's values: names `part` and lists every conflict.
std::string AttributeConflictWarning(const PartView& part,
                                     const std::vector<AttributeConflict>& conflicts);

}  // namespace kerchunk::internal
