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

#include "kerchunk/combine/cf_time.h"
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
  /// The units and calendar attributes (text; empty when absent). With units "<unit> since
  /// <date>" a reader decodes the numbers to dates (Time()).
  std::string units;
  std::string calendar;

  /// The value a reader sees for stored number `x` (already read in the variable's dtype, or
  /// reinterpreted as unsigned by the caller); nullopt when masked.
  std::optional<double> Decode(double x) const;
  /// The CF time units and calendar when `units` are "<unit> since <date>" in a calendar this
  /// toolkit knows; nullopt otherwise (not a time, or "months since", "none" calendar, ...).
  std::optional<CfTimeUnits> Time() const;
  /// "scale_factor 0.01, add_offset 250.0, _FillValue -32767" (only what is set, and units and
  /// calendar for times), or "no CF attributes".
  std::string Describe() const;
  bool operator==(const CfDecoding&) const = default;
};

/// CF lets a bounds variable ("time_bnds", named by its coordinate's `bounds` attribute) leave
/// out units and calendar, which it then shares with its coordinate; xarray copies them over
/// before decoding. Sets `bounds`'s missing units and calendar from `coordinate`'s.
void InheritTimeAttributes(const CfDecoding& coordinate, CfDecoding& bounds);

/// The index's decoding of an array from its .zattrs document (`attrs`, an object or null) and
/// .zarray. Attributes that are not numbers (or lists of numbers, for missing_value) are
/// ignored, as readers ignore them.
CfDecoding IndexDecoding(const json::Value& attrs, const ZarrArrayMeta& meta);

/// A source file's decoding from its attributes: `numbers(name)` gives an attribute's values
/// (empty when absent or not numeric), `text(name)` a text attribute (empty when absent or not
/// text); scale_factor, add_offset and _FillValue count only when they hold exactly one value.
CfDecoding SourceDecoding(const std::function<std::vector<double>(const char*)>& numbers,
                          const std::function<std::string(const char*)>& text);

}  // namespace kerchunk::verify::internal
