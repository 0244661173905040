#include "combine/chunk_merge.h"

#include <algorithm>
#include <numeric>

namespace kerchunk::internal {
namespace {

// Linear chunk index arithmetic for moving chunks along one axis: a linear index is
// (outer * count[axis] + c) * inner + rest, where inner is the number of chunks in the
// dimensions after the axis. Moving changes c and count[axis] only.
struct AxisShift {
  uint64_t inner = 1;
  uint64_t local_count = 1;
  uint64_t output_count = 1;
  uint64_t shift = 0;

  uint64_t Map(uint64_t local) const {
    uint64_t rest = local % inner, above = local / inner;
    uint64_t c = above % local_count, outer = above / local_count;
    return (outer * output_count + c + shift) * inner + rest;
  }
};

AxisShift MakeShift(const ChunkGrid& local, const ChunkGrid& output, size_t axis, uint64_t start) {
  AxisShift s;
  for (size_t d = axis + 1; d < output.rank(); ++d) s.inner *= output.counts()[d];
  s.local_count = local.counts()[axis];
  s.output_count = output.counts()[axis];
  s.shift = start / output.chunks()[axis];
  return s;
}

struct Item {
  uint64_t chunk;     // output linear index
  uint32_t part;      // input position of the part
  uint32_t position;  // reference position in that part's ArrayRefs
};

}  // namespace

UrlRemapper::UrlRemapper(UrlTable& out, const std::vector<PartView>& parts)
    : out_(out), parts_(parts), ids_(parts.size()) {
  for (size_t p = 0; p < parts.size(); ++p) ids_[p].assign(parts[p].refs->urls.size(), kUnset);
}

uint32_t UrlRemapper::Map(size_t part, uint32_t id) {
  uint32_t& slot = ids_[part][id];
  if (slot == kUnset) slot = out_.Intern(parts_[part].refs->urls[id]);
  return slot;
}

void AppendReference(ArrayRefs& out, uint64_t chunk, const ArrayRefs& source, size_t i, size_t part,
                     UrlRemapper& urls) {
  ChunkRef ref = source.Get(i);
  if (ref.kind != RefKind::kInline) ref.url = urls.Map(part, ref.url);
  out.Add(chunk, ref);
}

namespace {

// Calls fn(part, position, output chunk) for every reference of the variable, parts in order
// of their start position.
template <typename Fn>
void ForEachMoved(const std::vector<const ArrayRefs*>& sources, const std::vector<size_t>& order,
                  const Placement& placement, const ChunkGrid& grid, size_t axis, Fn&& fn) {
  for (size_t p : order) {
    const ArrayRefs* refs = sources[p];
    if (!refs || refs->empty() || placement.length[p] == 0) continue;
    AxisShift shift = MakeShift(refs->grid(), grid, axis, placement.start[p]);
    const auto& chunks = refs->chunks();
    for (size_t i = 0; i < chunks.size(); ++i) fn(p, i, shift.Map(chunks[i]));
  }
}

// Overlapping parts or a concat axis after the first chunked dimension: order by output chunk
// and keep, for each chunk, the part that comes last in input order (MultiZarrToZarr writes
// parts in input order, so later ones overwrite earlier keys), or first with
// placement.earlier_wins.
std::vector<Item> SortedLastWins(const std::vector<const ArrayRefs*>& sources,
                                 const std::vector<size_t>& order, const Placement& placement,
                                 const ChunkGrid& grid, size_t axis, size_t total) {
  std::vector<Item> items;
  items.reserve(total);
  ForEachMoved(sources, order, placement, grid, axis, [&](size_t p, size_t i, uint64_t out) {
    items.push_back({out, static_cast<uint32_t>(p), static_cast<uint32_t>(i)});
  });
  // Sorted so that the winner of each chunk comes last among its equals.
  const bool earlier_wins = placement.earlier_wins;
  std::sort(items.begin(), items.end(), [earlier_wins](const Item& a, const Item& b) {
    if (a.chunk != b.chunk) return a.chunk < b.chunk;
    return earlier_wins ? a.part > b.part : a.part < b.part;
  });
  size_t kept = 0;
  for (size_t i = 0; i < items.size(); ++i) {
    if (i + 1 < items.size() && items[i + 1].chunk == items[i].chunk) continue;
    items[kept++] = items[i];
  }
  items.resize(kept);
  return items;
}

}  // namespace

Result<ArrayRefs> ConcatenateChunks(const std::vector<PartView>& parts, const VariablePlan& plan,
                                    const Placement& placement, ChunkGrid grid, UrlRemapper& urls) {
  std::vector<size_t> order(parts.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return placement.start[a] < placement.start[b]; });
  std::vector<const ArrayRefs*> sources(parts.size());
  size_t total = 0;
  for (size_t p = 0; p < parts.size(); ++p) {
    sources[p] = parts[p].Find(plan.path)->refs;
    total += sources[p] ? sources[p]->size() : 0;
  }
  // Usually (disjoint parts, concat axis first) the moved chunks come out in increasing order
  // and can be appended directly; a first pass checks that without storing anything.
  bool increasing = true;
  uint64_t previous = 0;
  bool first = true;
  ForEachMoved(sources, order, placement, grid, plan.axis, [&](size_t, size_t, uint64_t out) {
    if (!first && out <= previous) increasing = false;
    previous = out;
    first = false;
  });
  ArrayRefs out(plan.path, grid);
  if (increasing) {
    out.Reserve(total);
    ForEachMoved(sources, order, placement, grid, plan.axis, [&](size_t p, size_t i, uint64_t c) {
      AppendReference(out, c, *sources[p], i, p, urls);
    });
  } else {
    std::vector<Item> items = SortedLastWins(sources, order, placement, grid, plan.axis, total);
    out.Reserve(items.size());
    for (const Item& item : items) {
      AppendReference(out, item.chunk, *sources[item.part], item.position, item.part, urls);
    }
  }
  KERCHUNK_RETURN_IF_ERROR(out.Finalize().Annotate("variable \"{}\"", plan.path));
  return out;
}

}  // namespace kerchunk::internal
