// Builds the columns of one generator from the byte-range references of variables that share a
// chunk grid: chooses the stream order (interleave) that makes offsets cheapest, then the
// length predictor that makes the Rice-coded residuals smallest, measuring encoded sizes on
// samples rather than guessing, and encodes the stream in a few linear passes that read the
// references in place (see group_stream.h).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "generator.h"
#include "group_stream.h"
#include "kerchunk/util/status.h"

namespace kerchunk::pack::internal {

struct BuildOptions {
  uint64_t checkpoint_interval = 256;
  bool readable = false;
};

/// The generator of `vars` (at least one reference in all; every variable has `chunks` chunks,
/// `chunk_grid` without its dimensions of one chunk). files.url holds the URL ids of the
/// variables' url columns. Fails (Internal) only if the variables x chunks of the grid exceed
/// 2^64, which the caller avoids by splitting.
Result<GeneratorColumns> BuildGenerator(std::span<const GroupVariable> vars, uint64_t chunks,
                                        const std::vector<uint64_t>& chunk_grid,
                                        const BuildOptions& options);

}  // namespace kerchunk::pack::internal
