// A synthetic time series of NetCDF-4 files written with the netCDF-C API, for `kerchunk bench`
// and the scan benchmark: what a data centre's daily archive looks like to the chunk-index
// walker, at any size.
//
// Each file is one day: an unlimited "time" dimension with one step and its coordinate, "lat"
// and "lon" coordinates, and `variables` float32 variables (time, lat, lon) chunked (1, e, e)
// and compressed with shuffle + zlib, as CMIP/ERA-style products are. Chunk contents are a
// smooth field plus noise whose amplitude varies from chunk to chunk, so compressed chunk
// lengths spread as real ones do; a chosen share of chunks holds only the fill value (dry or
// masked areas), which compresses to one modal length; and the last variable never writes a
// fixed share of its spatial chunks (land points of a sea-surface field), so their keys are
// missing. Everything is deterministic for given options.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "kerchunk/util/status.h"

namespace kerchunk::bench {

struct NetcdfSeriesOptions {
  uint32_t files = 100;
  /// Chunks of each variable per file (the spatial chunk grid is the most square factorisation
  /// of this number, see SquarestGrid).
  uint64_t chunks_per_file = 1000;
  uint32_t variables = 3;
  /// Target share of chunk slots (all variables, written or not) that hold an all-fill chunk and
  /// so have the modal compressed length: the "gfactor" pack reports.
  double gfactor = 0.4;
  /// Share of the last variable's spatial chunks never written, the same in every file.
  double missing = 0.1;
  /// Chunk edge in elements: chunks are (1, edge, edge) float32.
  uint32_t chunk_edge = 16;
  uint64_t seed = 1;
};

/// What was written, so the benchmark can check the scan against it.
struct NetcdfSeries {
  std::vector<std::string> paths;           ///< in time order
  std::vector<std::string> variable_names;  ///< data variables, in file order
  std::vector<uint64_t> chunks_written;     ///< per data variable, over all files
  uint64_t total_bytes = 0;                 ///< size of all files
  double seconds = 0;                       ///< time taken to write them
};

/// Checks the options (InvalidArgument naming the option): at least one file, variable and
/// chunk; shares within [0, 1); a gfactor reachable with the chunks that are written.
Status ValidateNetcdfSeriesOptions(const NetcdfSeriesOptions& options);

/// Writes the series into `dir` (created if needed) as "<dir>/day_YYYYMMDD.nc" from 2000-01-01
/// on. Errors name the file and carry netCDF-C's message.
Result<NetcdfSeries> WriteNetcdfSeries(const std::filesystem::path& dir,
                                       const NetcdfSeriesOptions& options);

/// The factorisation rows x columns == n with rows <= columns and rows as large as possible,
/// so that a chunk count maps onto a near-square spatial grid (a prime n gives 1 x n).
std::pair<uint64_t, uint64_t> SquarestGrid(uint64_t n);

}  // namespace kerchunk::bench
