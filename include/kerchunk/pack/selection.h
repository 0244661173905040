// Selections of array elements, as `kerchunk unpack --select 'lst[0:10, :, 100:200]'` takes
// them: an array path, then per dimension an index or a Python slice without step. Negative
// indices count from the end; slice bounds are clamped to the array as in numpy; missing
// trailing dimensions select everything.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "kerchunk/refs/chunk_grid.h"
#include "kerchunk/util/status.h"

namespace kerchunk::pack {

struct DimensionSelection {
  bool index = false;            ///< a single index (start) rather than a slice
  std::optional<int64_t> start;  ///< slice start or the index; nullopt: from the beginning
  std::optional<int64_t> stop;   ///< slice stop; nullopt: to the end
};

struct Selection {
  std::string array;  ///< array path, e.g. "lst" or "group/lst"
  std::vector<DimensionSelection> dimensions;
};

/// Parses "path", "path[...]" with comma-separated "i", "a:b", ":" etc. InvalidArgument with the
/// position on a syntax error (steps, "...", empty path, unbalanced brackets).
Result<Selection> ParseSelection(std::string_view text);

/// The elements a selection takes, per dimension a half-open range [first, last) of element
/// indices (empty when the selection is empty). Errors as SelectedChunkRanges.
Result<std::vector<std::pair<uint64_t, uint64_t>>> SelectedElementRanges(const Selection& selection,
                                                                         const ChunkGrid& grid);

/// The chunks a selection touches, per dimension a half-open range [first, last) of chunk
/// indices (empty when the selection is empty). InvalidArgument when the selection has more
/// dimensions than the grid or an index is out of bounds.
Result<std::vector<std::pair<uint64_t, uint64_t>>> SelectedChunkRanges(const Selection& selection,
                                                                       const ChunkGrid& grid);

}  // namespace kerchunk::pack
