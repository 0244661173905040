// Generated inputs for the value-attribute rules of combine and verify: a NetCDF-4 time series
// of packed int16 data whose files may each carry their own scale_factor, add_offset,
// _FillValue, time units and calendar (as ERA5 downloads and many satellite products do),
// optionally with a time bounds variable. Link kerchunk_test_packed_fixtures to use them.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "kerchunk/util/status.h"

namespace kerchunk::testing {

/// Per-file attributes: entry f is file f's; a list shorter than the series repeats its last
/// entry (a one-entry list gives every file the same value).
struct PackedSeriesSpec {
  std::string prefix = "packed";
  int files = 3;
  int times = 2;        ///< steps per file along the unlimited dimension "time"
  bool netcdf4 = true;  ///< NetCDF-4 (t2m chunked and deflated) or NetCDF-3 64-bit offset
  int lat = 3;
  int lon = 4;
  std::vector<double> scale_factor = {0.01};
  std::vector<double> add_offset = {250.0};
  std::vector<int16_t> fill_value = {-32767};
  /// scale_factor/add_offset of file f as NC_FLOAT (true) or NC_DOUBLE.
  std::vector<bool> float_attributes = {false};
  /// File f's time counts "days since 2000-01-<1 + f*times>" (its values then start at 0.5 in
  /// every file) instead of "days since 2000-01-01" (files * times must stay below 31).
  bool per_file_units = false;
  std::vector<std::string> calendar = {"standard"};
  bool bounds = false;        ///< time:bounds = "time_bnds", time_bnds(time, nv) = [t, t+1]
  bool bounds_units = false;  ///< time_bnds has its own units/calendar (as CMIP5 EC-EARTH)
};

/// Writes "<prefix>_<NNN>.nc" into `dir` and returns the paths in order. Every file holds
///   time(time) double, calendar[f]; the series is 0.5, 1.5, ... days after 2000-01-01 (see
///     per_file_units for the units each file counts in);
///   lat(lat), lon(lon) float;
///   t2m(time, lat, lon) short (NetCDF-4: chunks (1, lat, lon), deflate), with scale_factor[f],
///     add_offset[f], _FillValue fill_value[f], units "K"; element (t, 0, 0) of every step is
///     the fill value, the others pack PackedValue.
Result<std::vector<std::string>> WritePackedSeries(const std::filesystem::path& dir,
                                                   const PackedSeriesSpec& spec);

/// The decoded value of t2m at (t, y, x) of file `file` (before packing), in K.
double PackedValue(int file, int t, int y, int x);

}  // namespace kerchunk::testing
