// What a CF reader (xarray's mask_and_scale, netCDF4-python's auto mask and scale) makes of a
// variable's stored numbers: values equal to _FillValue or missing_value are masked, others
// become (optionally unsigned) value * scale_factor + add_offset. verify --source decodes each
// chunk twice — through the index's attributes and through the original file's own — so that
// an index whose attributes are not the file's (a combine that kept the first file's
// scale_factor) fails although the stored numbers are identical.
#pragma once

#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "kerchunk/json/json_value.h"
#include "kerchunk/refs/zarr_metadata.h"

namespace kerchunk::verify::internal {

struct CfDecoding {
  std::optional<double> scale_factor;
  std::optional<double> add_offset;
  /// _FillValue: the index's .zattrs attribute, else its .zarray fill_value; the file's
  /// attribute. A file without the attribute leaves it unset (see Compare).
  std::optional<double> fill_value;
  std::vector<double> missing_values;
  bool is_unsigned = false;  ///< _Unsigned = "true" on a signed integer variable

  /// The value a reader sees for stored number `x` (already read in the variable's dtype, or
  /// reinterpreted as unsigned by the caller); nullopt when masked.
  std::optional<double> Decode(double x) const;
  /// "scale_factor 0.01, add_offset 250.0, _FillValue -32767" (only what is set), or "no CF
  /// attributes".
  std::string Describe() const;
  bool operator==(const CfDecoding&) const = default;
};

/// The index's decoding of an array from its .zattrs document (`attrs`, an object or null) and
/// .zarray. Attributes that are not numbers (or lists of numbers, for missing_value) are
/// ignored, as readers ignore them.
CfDecoding IndexDecoding(const json::Value& attrs, const ZarrArrayMeta& meta);

/// A source file's decoding from its numeric attributes: `numbers(name)` gives an attribute's
/// values (empty when absent or not numeric); scale_factor, add_offset and _FillValue count
/// only when they hold exactly one value. The caller sets is_unsigned (a text attribute).
CfDecoding SourceDecoding(const std::function<std::vector<double>(const char*)>& numbers);

}  // namespace kerchunk::verify::internal
