// Synthetic combine inputs: one "file" of a time series as a ReferenceSet, built in memory.
//
// Each part has a global .zgroup/.zattrs and the variables
//   time (time)       the coordinate: values stored inline (raw) or in a file the test writes
//   tas  (time, lat)  data: chunks [time_chunk, nlat], each a range of the part's URL
//   lat  (lat)        taken from the first part
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "kerchunk/refs/reference_set.h"

namespace kerchunk::testing {

struct PartSpec {
  std::string url = "f0.nc";
  std::vector<double> times;
  std::string time_dtype = "<f8";  ///< "<f8", ">f8", "<f4", "<i4", "<i8"
  std::string units = "days since 2000-01-01";
  std::string calendar = "standard";  ///< "" leaves the attribute out
  uint64_t time_chunk = 1;            ///< tas chunk extent along time
  uint64_t nlat = 3;
  std::string tas_dtype = "<f4";
  std::string fill_value = "null";  ///< tas fill value as JSON
  std::string tas_attributes;       ///< more members of tas/.zattrs: ,"scale_factor":0.1
  /// When set, the coordinate's bytes are written to this file and referenced (zlib-compressed
  /// in chunks of coordinate_chunk) instead of inline.
  std::string coordinate_file;
  uint64_t coordinate_chunk = 0;  ///< 0: one chunk
  uint64_t lat_offset = 0;        ///< lat's byte offset (vary to make lat refs differ)
};

/// The part described by `spec`. Data chunk (k, 0) of tas refers to [url, 1000 + 16k, 16].
ReferenceSet MakePart(const PartSpec& spec);

/// The decoded values of an inline one-chunk coordinate of a combined set, as doubles.
std::vector<double> CoordinateValues(const ReferenceSet& refs, const std::string& path = "time");

/// The text of an entry ("" when absent).
std::string EntryText(const ReferenceSet& refs, const std::string& key);

}  // namespace kerchunk::testing
