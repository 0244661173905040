// The values of a new concat dimension, one per input, from a CoordinateSource (--coord DIM=
// attr:NAME, vattr:VAR:NAME, path:REGEX or index).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "combine/part_view.h"
#include "kerchunk/combine/cf_time.h"
#include "kerchunk/combine/combine.h"

namespace kerchunk::internal {

/// One input's value along a new dimension: a string or a number.
struct DimensionValue {
  bool is_string = false;
  std::string text;
  CoordinateValue number;

  bool operator==(const DimensionValue& o) const {
    return is_string == o.is_string && (is_string ? text == o.text : number == o.number);
  }
  std::string Show() const;
};

/// Each part's value from `source` (not kData). InvalidArgument naming the part when an
/// attribute is missing or neither a string nor a number, when the regex does not match its
/// first URL, or when parts mix strings and numbers.
Result<std::vector<DimensionValue>> NewDimensionValues(const std::vector<PartView>& parts,
                                                       std::string_view dim,
                                                       const CoordinateSource& source);

/// The values as the inline coordinate array stores them: "<i8" when all are integers, "<f8"
/// for other numbers, "<U<n>" (UTF-32LE, n the longest in code points) for strings.
/// InvalidArgument for a string that is not UTF-8.
struct StoredValues {
  std::string dtype;
  std::string bytes;
};
Result<StoredValues> StoreDimensionValues(const std::vector<DimensionValue>& values);

/// Makes `values` the coordinate array `dim` of `refs`: its .zarray (StoreDimensionValues'
/// dtype, one chunk, no codecs), .zattrs when it has none ({"_ARRAY_DIMENSIONS": [dim]}), and
/// one inline chunk, replacing any earlier references of the array.
Status SetDimensionCoordinate(ReferenceSet& refs, const std::string& dim,
                              const std::vector<DimensionValue>& values);

}  // namespace kerchunk::internal
