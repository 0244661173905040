// Generated inputs for the scan driver's tests: multi-file time series written with the
// netCDF-C API (NetCDF-4 with compressed chunks and an unwritten chunk, or NetCDF-3 with record
// variables) and an HDF5 file with about a million tiny chunks for the memory budget.
// Link kerchunk_test_scan_fixtures to use them.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "kerchunk/util/status.h"

namespace kerchunk::testing {

/// One file set of a series: files "<prefix>_<NNN>.nc", each holding `times` steps.
struct SeriesSpec {
  std::string prefix = "day";
  int files = 3;
  int times = 4;  ///< steps per file (the unlimited dimension "time")
  int lat = 6;
  int lon = 8;
  bool netcdf4 = true;  ///< NetCDF-4 (chunked, deflate+shuffle) or NetCDF-3 64-bit offset
  /// NetCDF-4 only: leave one chunk of "pr" unwritten in every file (a missing key that zarr
  /// reads as the fill value).
  bool unwritten_chunk = true;
  std::string time_dim = "time";  ///< name of the unlimited dimension and its coordinate
  /// Ensemble member: added to tas (x 100) so that members differ, and written as the global
  /// attribute variant_label "r<member+1>i1p1f1" when `variant_label` is set.
  int member = 0;
  bool variant_label = false;
  /// Number of the first file: file k of the set holds times (first_file + k) * times + step
  /// + 0.5 + time_shift and is named with that number.
  int first_file = 0;
  double time_shift = 0;
  /// NEMO's layout: the coordinate counts 0, 1, ... in every file, and "time_centered(time)"
  /// holds the real times (in the coordinate's units).
  bool nemo_time = false;
};

/// Writes the series into `dir` and returns the paths in order. Every file holds:
///   time(time) double "days since 2000-01-01", values file*times + step + 0.5 (increasing);
///   lat(lat), lon(lon) float coordinates, identical in every file;
///   crs, a scalar int with grid-mapping attributes;
///   tas(time, lat, lon) float, chunks (1, lat/2, lon/2), deflate+shuffle (NetCDF-4);
///   pr(time, lat, lon) float with _FillValue -999 and (NetCDF-4) chunk (0, 0, 0) of every step
///   unwritten;
///   global attributes title and Conventions.
/// Values are deterministic, so regenerating gives equal data (HDF5 may differ in layout).
Result<std::vector<std::string>> WriteSeries(const std::filesystem::path& dir,
                                             const SeriesSpec& spec);

/// An HDF5 file with one 1-D uint8 dataset "/many" of `chunks` chunks of `chunk_size` elements,
/// all allocated at creation and never written (implicit index; the bytes read as zeros), for
/// memory and speed measurements of everything after the chunk-index walk.
Result<std::string> WriteManyChunksHdf5(const std::filesystem::path& path, uint64_t chunks,
                                        uint64_t chunk_size = 1);

}  // namespace kerchunk::testing
