// A realistic synthetic reference set: the index of a time series of daily netCDF-4 files, for
// size and speed measurements (pack, bench) at scales the shared corpus does not reach.
//
// What it models, and why each choice: files hold a header, the coordinates, then each variable's
// compressed chunks one variable after another in C order (xarray/netCDF-4 write variables one
// by one), with an occasional small gap where HDF5 placed an index node between chunks.
// Compressed chunk lengths vary from chunk to chunk around a per-variable size with a slow
// drift over the day and random jitter; one variable (a sea-surface field) never writes its
// land-only chunks and some others at random. URLs are ~110 characters like real archive paths.
// The chunk-length spread is a parameter: the default gives ~1.1 bytes of entropy per length.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "kerchunk/refs/reference_set.h"

namespace kerchunk {

struct SyntheticRefsOptions {
  uint32_t files = 31;           ///< daily files, concatenated along time
  uint32_t steps_per_file = 24;  ///< time steps per file (time chunk = 1 step)
  uint32_t variables = 3;        ///< data variables (t2m, tp, sst, then var3, var4, ...)
  std::vector<uint64_t> spatial_shape = {721, 1440};
  std::vector<uint64_t> spatial_chunks = {181, 360};
  /// Standard deviation of the random chunk-length jitter, in bytes. Together with the drift
  /// this sets the entropy of the lengths (default: ~9 bits = ~1.1 bytes per chunk).
  double length_jitter = 35.0;
  /// Amplitude of the slow (diurnal) drift of chunk lengths, in bytes.
  double length_drift = 60.0;
  /// Fraction of the last variable's spatial chunks that are land-only and never written.
  double land_fraction = 0.125;
  /// Probability that any other chunk of the last variable was never written.
  double missing = 0.005;
  /// Probability that an index node (a gap of 0.5-4 KiB) sits before a chunk.
  double gap_probability = 0.01;
  uint64_t seed = 20240101;
};

/// Builds the reference set (a finalized ReferenceSet with .zgroup/.zattrs/.zarray metadata,
/// coordinate arrays time/lat/lon and the data variables). Deterministic for given options.
ReferenceSet SyntheticReferenceSet(const SyntheticRefsOptions& options = {});

/// Zero-order entropy, in bits per value, of the lengths of all byte-range chunk references of
/// `refs` (the information a length coder without context has to store).
double ChunkLengthEntropyBits(const ReferenceSet& refs);

}  // namespace kerchunk
