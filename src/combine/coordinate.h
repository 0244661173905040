// The concat coordinate: reading each part's values, converting them to the first part's CF
// time units, and encoding the combined values as one inline array.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "combine/part_view.h"
#include "kerchunk/codecs/chunk_reader.h"
#include "kerchunk/codecs/pipeline.h"
#include "kerchunk/combine/cf_time.h"

namespace kerchunk::internal {

/// The decoded chunks of one variable of a part, read together (ReadDecodedChunks: one open per
/// file, neighbouring ranges in one read).
struct ChunksOfArray {
  std::vector<std::optional<size_t>> slot;  ///< per chunk in grid order: index into `decoded`
  std::vector<std::string> decoded;

  /// The decoded bytes of chunk `chunk`; nullptr when the part has no reference for it.
  const std::string* Decoded(uint64_t chunk) const {
    return chunk < slot.size() && slot[chunk] ? &decoded[*slot[chunk]] : nullptr;
  }
};

/// Reads and decodes the chunks 0..num_chunks-1 of `v` that `part` references, keeping the first
/// `keep_bytes` of each (all by default). Errors name the part and the chunk.
Result<ChunksOfArray> ReadChunks(const PartView& part, const PartVariable& v, uint64_t num_chunks,
                                 const codecs::Pipeline& pipeline, uint64_t chunk_bytes,
                                 const UrlToPath& url_to_path, uint64_t keep_bytes = UINT64_MAX);

/// Reads the values of a one-dimensional numeric coordinate of `part`, decoding its chunks with
/// the .zarray codecs; a missing chunk takes the fill value (DataLoss when there is none).
/// Unsupported for non-numeric dtypes. Errors name the part and the chunk.
Result<std::vector<CoordinateValue>> ReadCoordinateValues(const PartView& part,
                                                          const PartVariable& coordinate,
                                                          const UrlToPath& url_to_path);

/// Reads every value of a numeric variable of `part` in C order (shape of its .zarray), decoding
/// its chunks; a missing chunk takes the fill value (DataLoss when there is none). Unsupported
/// for non-numeric dtypes and Fortran order. Errors name the part and the chunk.
Result<std::vector<CoordinateValue>> ReadArrayValues(const PartView& part, const PartVariable& v,
                                                     const UrlToPath& url_to_path);

/// The exact map from values in (units, calendar) to (to_units, to_calendar); nullopt when the
/// values stay as they are (same units string, or an identity conversion). InvalidArgument when
/// the calendars differ; Unsupported for units that are not fixed-length CF time units.
Result<std::optional<CfTimeConversion>> TimeConversion(std::string_view units,
                                                       std::string_view calendar,
                                                       std::string_view to_units,
                                                       std::string_view to_calendar);

/// Converts `values` of `part`'s coordinate to the units of the first part's coordinate when
/// the "units" or "calendar" attributes differ (see cf_time.h for the exact arithmetic). When
/// neither units string is a time unit ("<unit> since <date>"), values are left as they are and
/// `warning` says so; a conversion also sets `warning`. Errors name the part: calendars that
/// differ, or units that differ while one of them cannot be parsed.
Status ConvertToFirstUnits(const PartVariable& first, const PartView& part,
                           const PartVariable& coordinate, std::vector<CoordinateValue>& values,
                           std::string& warning);

/// The combined coordinate as stored: dtype and raw bytes.
struct EncodedCoordinate {
  std::string dtype;
  std::string bytes;
};

/// Encodes `values` in the first part's dtype when every value is exactly representable in it;
/// otherwise as "<i8" when the first dtype is an integer type and all values are integers that
/// fit, else as "<f8" (integers beyond 2^53 then round to nearest).
EncodedCoordinate EncodeCoordinate(std::string_view first_dtype,
                                   const std::vector<CoordinateValue>& values);

}  // namespace kerchunk::internal
