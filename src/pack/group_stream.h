// The byte-range references of a group of variables that share a chunk grid, read in place,
// and the walk that visits them in a generator's stream order (see StreamOrder).
//
// Why in place: pack is a few linear passes over the references, and on large indexes the cost
// that dominates is memory first touched, not arithmetic. Each pass reads the reference set's
// own columns; nothing per reference is copied or materialised in stream order.
#pragma once

#include <algorithm>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "stream_order.h"

namespace kerchunk::pack::internal {

/// One variable of a group: its byte-range references in increasing chunk order, as parallel
/// columns (views of an ArrayRefs, or of a filtered copy when the array also holds inline or
/// whole-file chunks).
struct GroupVariable {
  std::string path;
  std::span<const uint64_t> chunks, offsets, lengths;
  std::span<const uint32_t> urls;

  size_t size() const { return chunks.size(); }
  /// Index of the first reference whose chunk is >= `limit`.
  size_t LowerBound(uint64_t limit) const {
    return static_cast<size_t>(std::lower_bound(chunks.begin(), chunks.end(), limit) -
                               chunks.begin());
  }
};

/// Calls fn(slot, var, item) for the references of `vars` in the order `order` visits them, for
/// the chunks below `chunk_limit`. Each variable's references are in increasing chunk order, so
/// this is a merge by block of `interleave` chunks.
template <typename Fn>
void ForEachInOrder(std::span<const GroupVariable> vars, const StreamOrder& order, Fn&& fn,
                    uint64_t chunk_limit = UINT64_MAX) {
  const size_t n = vars.size();
  const uint64_t g = order.interleave(), chunks = order.chunks();
  if (n == 1) {  // one variable: the stream is its references, one slot per chunk
    const GroupVariable& v = vars[0];
    const size_t end = chunk_limit == UINT64_MAX ? v.size() : v.LowerBound(chunk_limit);
    for (size_t i = 0; i < end; ++i) fn(v.chunks[i], uint32_t{0}, static_cast<uint64_t>(i));
    return;
  }
  std::vector<size_t> next(n, 0), end(n);
  for (size_t v = 0; v < n; ++v) {
    end[v] = chunk_limit == UINT64_MAX ? vars[v].size() : vars[v].LowerBound(chunk_limit);
  }
  for (;;) {
    uint64_t block = UINT64_MAX;
    for (size_t v = 0; v < n; ++v) {
      if (next[v] < end[v]) block = std::min(block, vars[v].chunks[next[v]] / g);
    }
    if (block == UINT64_MAX) break;
    const uint64_t start = block * g, width = std::min(g, chunks - start);
    const uint64_t base = start * n;  // slots of the blocks before
    for (size_t v = 0; v < n; ++v) {
      const uint64_t* c = vars[v].chunks.data();
      const uint64_t first_slot = base + v * width - start;
      size_t i = next[v];
      for (; i < end[v] && c[i] < start + width; ++i) {
        fn(first_slot + c[i], static_cast<uint32_t>(v), static_cast<uint64_t>(i));
      }
      next[v] = i;
    }
  }
}

}  // namespace kerchunk::pack::internal
