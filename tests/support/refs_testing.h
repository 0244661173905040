// Test helpers for reference sets: semantic equality with a readable first difference, and
// random reference sets for property tests.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <random>
#include <string>

#include "kerchunk/refs/reference_set.h"

namespace kerchunk::testing {

/// Equal when both hold the same keys with the same values: URLs compared as strings (ids may
/// differ), entries by key (order ignored), chunk references per array path. The failure
/// message names the first differing key and the totals.
::testing::AssertionResult SameReferences(const ReferenceSet& a, const ReferenceSet& b);

struct RandomRefsOptions {
  int max_arrays = 4;
  int max_files = 5;
  uint64_t max_chunks_per_dim = 6;
  int max_rank = 3;
  double missing = 0.2;    ///< probability that a chunk is absent
  double inline_p = 0.05;  ///< probability that a chunk is inline
  double whole_file_p = 0.02;
  int extra_entries = 3;  ///< keys outside any grid / without .zarray
  // The options below default to 0, which leaves the sets above unchanged (no random draws).
  /// Probability that an array reuses the previous array's shape and chunks, so that several
  /// arrays share a chunk grid as the variables of one file do.
  double shared_grid_p = 0;
  /// Probability that an array's byte ranges all have the same length (uncompressed data).
  double fixed_length_p = 0;
  /// Probability that the byte ranges are laid out again as files hold them: arrays sharing a
  /// grid stored chunk-major (interleaved) or one after another, consecutive chunks in one file
  /// then the next, mostly contiguous with occasional gaps, zero lengths and swapped chunks.
  double relayout_p = 0;
};

/// A random but valid reference set: groups, arrays with .zarray/.zattrs, chunks referring to
/// random files at random offsets (sometimes monotone, sometimes shuffled), inline chunks of
/// both forms, whole-file refs, and a few entries that are not chunks of any array.
ReferenceSet RandomReferenceSet(std::mt19937_64& rng, const RandomRefsOptions& options = {});

}  // namespace kerchunk::testing
