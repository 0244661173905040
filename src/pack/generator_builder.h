// Builds the columns of one generator from the byte-range references of variables that share a
// chunk grid: chooses the stream order (interleave) that makes offsets cheapest, then the
// length predictor that makes the Rice-coded residuals smallest, measuring the real encoded
// size of each candidate rather than guessing.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "generator.h"
#include "kerchunk/refs/reference_set.h"

namespace kerchunk::pack::internal {

/// One variable of a group: its array and the rows (positions in the ArrayRefs) of the byte-range
/// references the generator takes, in increasing chunk order.
struct GroupVariable {
  const ArrayRefs* array = nullptr;
  std::vector<uint64_t> rows;
};

struct BuildOptions {
  uint64_t checkpoint_interval = 256;
  bool readable = false;
};

/// The generator of `vars` (at least one reference in all, same chunk counts `chunk_grid`).
/// `url_ids` maps the ReferenceSet's URL ids to the packed file's. Fails (Internal) only if
/// the variables x chunks of the grid exceed 2^64, which the caller avoids by splitting.
Result<GeneratorColumns> BuildGenerator(std::span<const GroupVariable> vars,
                                        const std::vector<uint64_t>& chunk_grid,
                                        const std::vector<uint32_t>& url_ids,
                                        const BuildOptions& options);

}  // namespace kerchunk::pack::internal
