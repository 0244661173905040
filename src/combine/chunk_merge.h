// Moving chunk references between reference sets: URL ids re-interned into the output table,
// and the chunks of a concatenated variable renumbered along the concat dimension.
#pragma once

#include <cstdint>
#include <vector>

#include "combine/part_view.h"
#include "combine/placement.h"

namespace kerchunk::internal {

/// Maps each part's URL ids to ids of the output URL table, interning a URL the first time a
/// reference uses it (so URLs no output reference uses are not added).
class UrlRemapper {
 public:
  UrlRemapper(UrlTable& out, const std::vector<PartView>& parts);
  /// Output id of url id `id` of part `part`.
  uint32_t Map(size_t part, uint32_t id);

 private:
  static constexpr uint32_t kUnset = UINT32_MAX;
  UrlTable& out_;
  const std::vector<PartView>& parts_;
  std::vector<std::vector<uint32_t>> ids_;
};

/// Appends reference `i` of `source` (of part `part`) to `out` as chunk `chunk`.
void AppendReference(ArrayRefs& out, uint64_t chunk, const ArrayRefs& source, size_t i, size_t part,
                     UrlRemapper& urls);

/// The references of a concatenated variable: every part's chunks, their index along the concat
/// axis moved by the part's start / the chunk extent. Where parts overlap, a key keeps the
/// reference of the later part in input order. `grid` is the output grid (combined shape).
Result<ArrayRefs> ConcatenateChunks(const std::vector<PartView>& parts, const VariablePlan& plan,
                                    const Placement& placement, ChunkGrid grid, UrlRemapper& urls);

}  // namespace kerchunk::internal
