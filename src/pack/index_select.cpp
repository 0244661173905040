// Minimal unpacking: the references of some keys or of a selection, decoded from the nearest
// checkpoints only.
#include <fmt/format.h>

#include <algorithm>
#include <map>
#include <set>

#include "index_state.h"
#include "kerchunk/pack/packed_index.h"
#include "kerchunk/pack/selection.h"
#include "related_arrays.h"

namespace kerchunk::pack {

using internal::DecodedRef;
using internal::IndexState;

namespace {

using ChunkValues = std::vector<std::pair<uint64_t, ResolvedValue>>;
using Ranges = std::vector<std::pair<uint64_t, uint64_t>>;

uint64_t BoxSize(const Ranges& ranges) {
  uint64_t n = 1;
  for (const auto& [first, last] : ranges) {
    uint64_t extent = last - first;
    n = extent != 0 && n > UINT64_MAX / extent ? UINT64_MAX : n * extent;
  }
  return n;
}

bool InBox(const ChunkGrid& grid, const Ranges& ranges, uint64_t chunk,
           std::vector<uint64_t>& coords) {
  grid.Coords(chunk, coords);
  for (size_t d = 0; d < coords.size(); ++d) {
    if (coords[d] < ranges[d].first || coords[d] >= ranges[d].second) return false;
  }
  return true;
}

// Calls fn(linear chunk index) for the chunks of the box in C order (increasing).
template <typename Fn>
void ForEachInBox(const ChunkGrid& grid, const Ranges& ranges, Fn&& fn) {
  if (BoxSize(ranges) == 0) return;
  std::vector<uint64_t> coords(ranges.size());
  for (size_t d = 0; d < ranges.size(); ++d) coords[d] = ranges[d].first;
  for (;;) {
    fn(grid.Linear(coords));
    size_t d = coords.size();
    while (d > 0 && ++coords[d - 1] == ranges[d - 1].second) {
      coords[d - 1] = ranges[d - 1].first;
      --d;
    }
    if (d == 0) return;
  }
}

// The chunks of array `a` inside the box: verbatim, inline and generated.
Status CollectBox(const IndexState& s, size_t a, const Ranges& ranges, ChunkValues& out) {
  const ArrayRefs& array = s.base.arrays[a];
  const ChunkGrid& grid = array.grid();
  std::vector<uint64_t> coords(grid.rank());
  for (size_t r = 0; r < array.size(); ++r) {
    if (InBox(grid, ranges, array.chunk_index(r), coords)) {
      out.emplace_back(array.chunk_index(r), internal::VerbatimChunk(s.base, array, r));
    }
  }
  if (const internal::InlineDecoder* values = s.inline_of[a]) {
    const std::vector<uint64_t>& chunks = values->columns().chunks;
    for (size_t p = 0; p < chunks.size(); ++p) {
      if (!InBox(grid, ranges, chunks[p], coords)) continue;
      ResolvedValue v;
      v.kind = EntryValue::Kind::kBase64;
      KERCHUNK_ASSIGN_OR_RETURN(v.data, values->Value(p));
      out.emplace_back(chunks[p], v);
    }
  }
  const auto& member = s.membership[a];
  if (!member) return OkStatus();
  const internal::GeneratorDecoder& g = s.generators[member->generator];
  auto add = [&](const DecodedRef& ref) { out.emplace_back(ref.chunk, s.Generated(ref)); };
  // A box larger than the generator is cheaper to filter than to enumerate.
  if (BoxSize(ranges) / 4 > g.references()) {
    return g.Decode(0, g.references(), [&](const DecodedRef& ref) {
      if (ref.var == member->var && InBox(grid, ranges, ref.chunk, coords)) add(ref);
    });
  }
  std::vector<uint64_t> indices;
  ForEachInBox(grid, ranges, [&](uint64_t chunk) {
    if (auto i = g.IndexOf(member->var, chunk)) indices.push_back(*i);
  });
  // A variable's references are in increasing chunk order in every stream order.
  return g.DecodeSorted(indices, add);
}

// The chunks of the coordinates and other arrays an extract needs to open alone in xarray.
Status CollectRelated(const IndexState& s, size_t array, const Ranges& elements,
                      std::map<size_t, ChunkValues>& chunks) {
  for (const internal::ArrayBox& box : internal::RelatedArrays(s, array, elements)) {
    const ChunkGrid& grid = s.base.arrays[box.array].grid();
    Ranges ranges;
    for (size_t d = 0; d < grid.rank(); ++d) {
      const auto [first, last] = box.elements[d];
      const uint64_t chunk = grid.chunks()[d];
      ranges.push_back(first < last ? std::pair{first / chunk, (last - 1) / chunk + 1}
                                    : std::pair<uint64_t, uint64_t>{0, 0});
    }
    KERCHUNK_RETURN_IF_ERROR(CollectBox(s, box.array, ranges, chunks[box.array]));
  }
  return OkStatus();
}

void AddValue(ReferenceSet& out, ArrayRefs& array, uint64_t chunk, const ResolvedValue& v) {
  switch (v.kind) {
    case EntryValue::Kind::kRange:
      array.AddRange(chunk, out.urls.Intern(v.url), v.offset, v.length);
      break;
    case EntryValue::Kind::kWholeFile:
      array.AddWholeFile(chunk, out.urls.Intern(v.url));
      break;
    default:
      array.AddInline(chunk, v.data, v.kind == EntryValue::Kind::kBase64);
      break;
  }
}

}  // namespace

Result<ReferenceSet> PackedIndex::Select(std::string_view selection) const {
  std::string text(selection);
  return Extract({}, std::span<const std::string>(&text, 1), ExtractOptions{});
}

Result<ReferenceSet> PackedIndex::Extract(std::span<const std::string> keys,
                                          std::span<const std::string> selections,
                                          const ExtractOptions& options, uint64_t* missing) const {
  const IndexState& s = *state_;
  ReferenceSet out;
  std::set<std::string_view> entries_added;
  auto add_entry = [&](const Entry& e) {
    if (!entries_added.insert(e.key).second) return;
    Entry copy = e;
    if (e.value.kind == EntryValue::Kind::kRange || e.value.kind == EntryValue::Kind::kWholeFile) {
      copy.value.url = out.urls.Intern(s.base.urls[e.value.url]);
    }
    out.entries.push_back(std::move(copy));
  };
  if (options.metadata) {
    for (const Entry& e : s.base.entries) add_entry(e);
  }
  std::map<size_t, ChunkValues> chunks;  // by array of the base set
  for (const std::string& key : keys) {
    if (auto e = s.entry_by_key.find(key); e != s.entry_by_key.end()) {
      add_entry(s.base.entries[e->second]);
      continue;
    }
    KERCHUNK_ASSIGN_OR_RETURN(std::optional<ResolvedValue> value, Resolve(key));
    auto where = s.FindChunk(key);
    if (!value || !where) {
      if (missing) ++*missing;
      continue;
    }
    chunks[where->first].emplace_back(where->second, *value);
  }
  for (const std::string& text : selections) {
    KERCHUNK_ASSIGN_OR_RETURN(Selection selection, ParseSelection(text));
    auto it = s.array_by_path.find(selection.array);
    if (it == s.array_by_path.end()) {
      return NotFoundError("selection \"{}\": no array \"{}\" in the index", text, selection.array);
    }
    KERCHUNK_ASSIGN_OR_RETURN(Ranges ranges,
                              SelectedChunkRanges(selection, s.base.arrays[it->second].grid()));
    Status status = CollectBox(s, it->second, ranges, chunks[it->second]);
    if (status.ok() && options.metadata) {
      KERCHUNK_ASSIGN_OR_RETURN(Ranges elements,
                                SelectedElementRanges(selection, s.base.arrays[it->second].grid()));
      status = CollectRelated(s, it->second, elements, chunks);
    }
    if (!status.ok()) return std::move(status).Annotate("selection \"{}\"", text);
  }
  for (auto& [a, values] : chunks) {
    const ArrayRefs& source = s.base.arrays[a];
    std::sort(values.begin(), values.end(),
              [](const auto& x, const auto& y) { return x.first < y.first; });
    ArrayRefs& array = out.AddArray(source.path(), source.grid());
    for (size_t i = 0; i < values.size(); ++i) {
      if (i > 0 && values[i].first == values[i - 1].first) continue;  // asked for twice
      AddValue(out, array, values[i].first, values[i].second);
    }
  }
  return out;
}

}  // namespace kerchunk::pack
