#include "combine/chunk_merge.h"

#include <algorithm>
#include <numeric>
#include <span>

#include "util/sorted_runs.h"

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
  uint64_t outer_count = 1;  // chunks in the dimensions before the axis

  // With one chunk before the axis (the usual time-first layout) outer is always 0, and moving
  // a chunk is adding shift * inner: no division per reference.
  bool IsTranslation() const { return outer_count == 1; }
  uint64_t Translation() const { return shift * inner; }

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
  for (size_t d = 0; d < axis; ++d) s.outer_count *= local.counts()[d];
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

void UrlRemapper::MapAll(size_t part, const ArrayRefs& refs) {
  // A part is usually one file, so nearly every reference repeats the previous one's URL.
  uint32_t previous = kUnset;
  for (uint32_t id : refs.urls()) {
    if (id == previous || id > ArrayRefs::kMaxUrlId) continue;  // inline values have no URL
    Map(part, id);
    previous = id;
  }
}

namespace {

// Appends reference `i` of `source` (of part `part`) to `out` as chunk `chunk`, its URL id
// translated by url_of(part, id).
template <typename UrlOf>
void AppendMoved(ArrayRefs& out, uint64_t chunk, const ArrayRefs& source, size_t i, size_t part,
                 UrlOf&& url_of) {
  ChunkRef ref = source.Get(i);
  if (ref.kind != RefKind::kInline) ref.url = url_of(part, ref.url);
  out.Add(chunk, ref);
}

// Calls fn(part, position, output chunk) for every reference of the variable in the parts
// `order` lists, in that order.
template <typename Fn>
void ForEachMoved(const std::vector<const ArrayRefs*>& sources, std::span<const size_t> order,
                  const Placement& placement, const ChunkGrid& grid, size_t axis, Fn&& fn) {
  for (size_t p : order) {
    const ArrayRefs* refs = sources[p];
    if (!refs || refs->empty() || placement.length[p] == 0) continue;
    AxisShift shift = MakeShift(refs->grid(), grid, axis, placement.start[p]);
    const auto& chunks = refs->chunks();
    if (shift.IsTranslation()) {
      const uint64_t add = shift.Translation(), end = shift.local_count * shift.inner;
      for (size_t i = 0; i < chunks.size(); ++i) {
        fn(p, i, chunks[i] < end ? chunks[i] + add : shift.Map(chunks[i]));
      }
    } else {
      for (size_t i = 0; i < chunks.size(); ++i) fn(p, i, shift.Map(chunks[i]));
    }
  }
}

// Overlapping parts or a concat axis after the first chunked dimension: order by output chunk
// and keep, for each chunk, the part that comes last in input order (MultiZarrToZarr writes
// parts in input order, so later ones overwrite earlier keys), or first with
// placement.earlier_wins.
std::vector<Item> SortedLastWins(const std::vector<const ArrayRefs*>& sources,
                                 std::span<const size_t> order, const Placement& placement,
                                 const ChunkGrid& grid, size_t axis, size_t total) {
  std::vector<Item> items;
  items.reserve(total);
  ForEachMoved(sources, order, placement, grid, axis, [&](size_t p, size_t i, uint64_t out) {
    items.push_back({out, static_cast<uint32_t>(p), static_cast<uint32_t>(i)});
  });
  // Sorted so that the winner of each chunk comes last among its equals. Each part's chunks
  // usually come out increasing (when the concat axis is the first), so the runs are merged.
  const bool earlier_wins = placement.earlier_wins;
  SortByMergingRuns(items, [earlier_wins](const Item& a, const Item& b) {
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

// References of part `p` that the concatenation moves (none from a part of length 0).
size_t MovedCount(const std::vector<const ArrayRefs*>& sources, const Placement& placement,
                  size_t p) {
  return sources[p] && placement.length[p] != 0 ? sources[p]->size() : 0;
}

}  // namespace

Result<Concatenation> Concatenation::Prepare(const std::vector<PartView>& parts,
                                             const VariablePlan& plan, const Placement& placement,
                                             ChunkGrid grid, UrlRemapper& urls, size_t max_pieces) {
  Concatenation c(plan, placement, std::move(grid), urls);
  c.order_.resize(parts.size());
  std::iota(c.order_.begin(), c.order_.end(), 0);
  std::stable_sort(c.order_.begin(), c.order_.end(),
                   [&](size_t a, size_t b) { return placement.start[a] < placement.start[b]; });
  c.sources_.resize(parts.size());
  size_t total = 0;
  for (size_t p = 0; p < parts.size(); ++p) {
    c.sources_[p] = parts[p].Find(plan.path)->refs;
    total += c.sources_[p] ? c.sources_[p]->size() : 0;
  }
  // Usually (disjoint parts, concat axis first) the moved chunks come out in increasing order
  // and pieces of parts can be built apart; a first pass checks that without storing anything.
  bool increasing = true;
  uint64_t previous = 0;
  bool first = true;
  ForEachMoved(c.sources_, c.order_, placement, c.out_.grid(), plan.axis,
               [&](size_t, size_t, uint64_t out) {
                 if (!first && out <= previous) increasing = false;
                 previous = out;
                 first = false;
               });
  if (!increasing) {
    std::vector<Item> items =
        SortedLastWins(c.sources_, c.order_, placement, c.out_.grid(), plan.axis, total);
    c.out_.Reserve(items.size());
    for (const Item& item : items) {
      AppendMoved(c.out_, item.chunk, *c.sources_[item.part], item.position, item.part,
                  [&urls](size_t p, uint32_t id) { return urls.Map(p, id); });
    }
    return c;
  }
  size_t moved = 0;
  for (size_t p : c.order_) {
    if (MovedCount(c.sources_, placement, p) != 0) urls.MapAll(p, *c.sources_[p]);
    moved += MovedCount(c.sources_, placement, p);
  }
  // Pieces of about moved / max_pieces references, each a run of whole parts.
  const size_t target =
      std::max<size_t>(1, (moved + max_pieces - 1) / std::max<size_t>(1, max_pieces));
  c.piece_parts_ = {0};
  c.piece_first_ = {0};
  size_t in_piece = 0, before = 0;
  for (size_t k = 0; k < c.order_.size(); ++k) {
    const size_t n = MovedCount(c.sources_, placement, c.order_[k]);
    in_piece += n;
    before += n;
    if (in_piece >= target && k + 1 < c.order_.size()) {
      c.piece_parts_.push_back(k + 1);
      c.piece_first_.push_back(before);
      in_piece = 0;
    }
  }
  c.piece_parts_.push_back(c.order_.size());
  c.inline_values_.resize(c.pieces());
  c.out_.AddUnset(moved);
  return c;
}

void Concatenation::Build(size_t piece) {
  std::span<const size_t> parts(order_.data() + piece_parts_[piece],
                                piece_parts_[piece + 1] - piece_parts_[piece]);
  size_t position = piece_first_[piece];
  ForEachMoved(sources_, parts, *placement_, out_.grid(), plan_->axis,
               [&](size_t p, size_t i, uint64_t chunk) {
                 const ArrayRefs& source = *sources_[p];
                 const uint32_t url = source.urls()[i];
                 if (url > ArrayRefs::kMaxUrlId) {
                   const ChunkRef ref = source.Get(i);
                   inline_values_[piece].push_back({position, chunk, ref.data, ref.base64});
                 } else {
                   out_.SetRange(position, chunk, urls_->Mapped(p, url), source.offsets()[i],
                                 source.lengths()[i]);
                 }
                 ++position;
               });
}

Result<ArrayRefs> Concatenation::Finish() && {
  for (const auto& values : inline_values_) {
    for (const InlineValue& v : values) out_.SetInline(v.position, v.chunk, v.bytes, v.base64);
  }
  KERCHUNK_RETURN_IF_ERROR(out_.Finalize().Annotate("variable \"{}\"", plan_->path));
  return std::move(out_);
}

}  // namespace kerchunk::internal
