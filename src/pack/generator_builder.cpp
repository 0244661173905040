#include "generator_builder.h"

#include <algorithm>
#include <map>

#include "column_codec.h"
#include "kerchunk/util/checked_math.h"
#include "length_encoder.h"
#include "presence.h"
#include "radix_sort.h"
#include "rice_codec.h"
#include "stream_order.h"

namespace kerchunk::pack::internal {
namespace {

// A reference in stream order: its slot, variable and position in that variable's rows.
struct StreamItem {
  uint64_t slot;
  uint32_t var;
  uint64_t item;
};

// The references of a group, read in place from the arrays: reference i of variable v is row
// rows[v][i] of its ArrayRefs (copying the columns would double the memory traffic of pack).
class GroupData {
 public:
  GroupData(std::span<const GroupVariable> vars, const std::vector<uint32_t>& url_ids)
      : vars_(vars), url_ids_(url_ids), median_(vars.size(), 0) {
    for (size_t v = 0; v < vars.size(); ++v) {
      total += vars[v].rows.size();
      std::vector<uint64_t> lengths;
      lengths.reserve(vars[v].rows.size());
      for (size_t i = 0; i < size(v); ++i) lengths.push_back(length(v, i));
      if (lengths.empty()) continue;
      auto mid = lengths.begin() + static_cast<ptrdiff_t>((lengths.size() - 1) / 2);
      std::nth_element(lengths.begin(), mid, lengths.end());
      median_[v] = *mid;
    }
  }

  size_t variables() const { return vars_.size(); }
  size_t size(size_t v) const { return vars_[v].rows.size(); }
  uint64_t chunk(size_t v, size_t i) const { return array(v).chunks()[row(v, i)]; }
  uint64_t offset(size_t v, size_t i) const { return array(v).offsets()[row(v, i)]; }
  uint64_t length(size_t v, size_t i) const { return array(v).lengths()[row(v, i)]; }
  uint32_t url(size_t v, size_t i) const { return url_ids_[array(v).urls()[row(v, i)]]; }
  /// Zig-zag of the length minus the variable's median: the residual of the constant predictor.
  uint64_t residual(size_t v, size_t i) const { return ZigZag(length(v, i) - median_[v]); }
  /// Index of the first reference of variable v whose chunk is >= `limit`.
  size_t LowerBound(size_t v, uint64_t limit) const {
    size_t lo = 0, hi = size(v);
    while (lo < hi) {
      size_t mid = lo + (hi - lo) / 2;
      if (chunk(v, mid) < limit) {
        lo = mid + 1;
      } else {
        hi = mid;
      }
    }
    return lo;
  }

  uint64_t total = 0;

 private:
  const ArrayRefs& array(size_t v) const { return *vars_[v].array; }
  uint64_t row(size_t v, size_t i) const { return vars_[v].rows[i]; }

  std::span<const GroupVariable> vars_;
  const std::vector<uint32_t>& url_ids_;
  std::vector<uint64_t> median_;
};

// Calls fn(slot, var, item) for the references in the order `order` visits them, for the
// chunks below `chunk_limit`. Each variable's references are in increasing chunk order, so
// this is a merge by block.
template <typename Fn>
void ForEachInOrder(const GroupData& d, const StreamOrder& order, Fn&& fn,
                    uint64_t chunk_limit = UINT64_MAX) {
  const size_t vars = d.variables();
  const uint64_t g = order.interleave(), chunks = order.chunks();
  std::vector<size_t> next(vars, 0), end(vars);
  for (size_t v = 0; v < vars; ++v) {
    end[v] = chunk_limit == UINT64_MAX ? d.size(v) : d.LowerBound(v, chunk_limit);
  }
  for (;;) {
    uint64_t block = UINT64_MAX;
    for (size_t v = 0; v < vars; ++v) {
      if (next[v] < end[v]) block = std::min(block, d.chunk(v, next[v]) / g);
    }
    if (block == UINT64_MAX) break;
    const uint64_t start = block * g, width = std::min(g, chunks - start);
    const uint64_t base = start * vars;  // slots of the blocks before
    for (size_t v = 0; v < vars; ++v) {
      for (size_t& i = next[v]; i < end[v]; ++i) {
        const uint64_t chunk = d.chunk(v, i);
        if (chunk >= start + width) break;
        fn(base + v * width + (chunk - start), static_cast<uint32_t>(v), i);
      }
    }
  }
}

std::vector<StreamItem> BuildStream(const GroupData& d, const StreamOrder& order) {
  std::vector<StreamItem> items;
  items.reserve(d.total);
  ForEachInOrder(d, order, [&](uint64_t slot, uint32_t var, uint64_t item) {
    items.push_back({slot, var, item});
  });
  return items;
}

// Bytes (before base64) of the presence, gap and file columns and of the lengths coded against
// each variable's median, for comparing orders on the chunks below `chunk_limit`.
uint64_t LayoutCost(const GroupData& d, const StreamOrder& order, uint64_t k,
                    uint64_t chunk_limit) {
  uint64_t bytes = 0, end = 0, next_slot = 0, run = 0, last_gap = 0, last_switch = 0, i = 0;
  uint64_t bits = 0;
  uint32_t url = UINT32_MAX;
  // A gap costs bytes where it differs from the variable's default gap, which is estimated here
  // as the variable's previous gap (constant strides cost nothing, as with the real default).
  std::vector<uint64_t> previous_gap(d.variables(), 0);
  std::vector<uint64_t> block;
  block.reserve(k);
  ForEachInOrder(
      d, order,
      [&](uint64_t slot, uint32_t var, uint64_t item) {
        if (slot != next_slot || run == 0) {  // a new present run
          if (run) bytes += VarintSize(run);
          bytes += VarintSize(slot - next_slot);
          run = 0;
        }
        ++run;
        next_slot = slot + 1;
        uint64_t offset = d.offset(var, item), gap = offset - end;
        if (gap != previous_gap[var]) {
          bytes += VarintSize(i - last_gap) + VarintSize(ZigZag(gap - previous_gap[var]));
          last_gap = i;
          previous_gap[var] = gap;
        }
        if (d.url(var, item) != url) {
          bytes += VarintSize(i - last_switch) + 2;
          last_switch = i;
          url = d.url(var, item);
        }
        end = offset + d.length(var, item);
        block.push_back(d.residual(var, item));
        if (block.size() == k) {
          bits += RiceCodec::EstimateBits(block);
          block.clear();
        }
        ++i;
      },
      chunk_limit);
  bits += RiceCodec::EstimateBits(block);
  if (run) bytes += VarintSize(run);
  return bytes + bits / 8;
}

// Orders are compared on the chunks below a limit holding ~kSampleReferences references (the
// same subset for every order, so costs compare like with like): the pattern of a file layout
// shows in far fewer references than a large index holds.
constexpr uint64_t kSampleReferences = 1 << 16;

uint64_t SampleChunkLimit(const GroupData& d, uint64_t chunks) {
  if (d.total <= 2 * kSampleReferences) return UINT64_MAX;
  auto below = [&](uint64_t limit) {
    uint64_t n = 0;
    for (size_t v = 0; v < d.variables(); ++v) n += d.LowerBound(v, limit);
    return n;
  };
  uint64_t lo = 1, hi = chunks;  // smallest limit with at least kSampleReferences below it
  while (lo < hi) {
    uint64_t mid = lo + (hi - lo) / 2;
    if (below(mid) >= kSampleReferences) {
      hi = mid;
    } else {
      lo = mid + 1;
    }
  }
  return lo;
}

// Candidate interleaves: chunk-major, variable-major, one first-dimension index per turn, and
// the usual run of chunks a variable keeps in one file (one file per turn).
std::vector<uint64_t> CandidateInterleaves(const GroupData& d, uint64_t chunks, uint64_t inner) {
  std::vector<uint64_t> out = {chunks};
  if (d.variables() == 1) return out;  // one variable: every order is the same
  out.push_back(1);
  if (inner > 1 && inner < chunks) out.push_back(inner);
  std::map<uint64_t, uint64_t> runs;  // run length -> how many runs
  for (size_t i = 0; i < d.size(0);) {
    size_t j = i + 1;
    while (j < d.size(0) && d.chunk(0, j) == d.chunk(0, j - 1) + 1 && d.url(0, j) == d.url(0, i)) {
      ++j;
    }
    ++runs[j - i];
    i = j;
  }
  auto most = std::max_element(runs.begin(), runs.end(),
                               [](const auto& a, const auto& b) { return a.second < b.second; });
  if (most != runs.end() && most->first > 1 && most->first < chunks) out.push_back(most->first);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

// The most common value (the smallest of equally common ones).
uint64_t Mode(std::vector<uint64_t>& values) {
  if (values.empty()) return 0;
  // Gaps usually have a majority value (0, or a record stride): Boyer-Moore's vote finds it in
  // one pass, a count confirms it; only otherwise sort.
  uint64_t candidate = values[0], votes = 0;
  for (uint64_t v : values) {
    if (votes == 0) candidate = v;
    if (v == candidate) {
      ++votes;
    } else {
      --votes;
    }
  }
  if (static_cast<uint64_t>(std::count(values.begin(), values.end(), candidate)) * 2 >
      values.size()) {
    return candidate;
  }
  RadixSort(values);
  uint64_t best = values[0], best_count = 0;
  for (size_t i = 0; i < values.size();) {
    size_t j = i;
    while (j < values.size() && values[j] == values[i]) ++j;
    if (j - i > best_count) {
      best_count = j - i;
      best = values[i];
    }
    i = j;
  }
  return best;
}

// Each variable's default gap: the most common distance from the previous reference's end to
// its references (0 for contiguous data; the other record variables' bytes for netCDF-3).
std::vector<uint64_t> DefaultGaps(const GroupData& d, const std::vector<StreamItem>& items) {
  std::vector<std::vector<uint64_t>> gaps(d.variables());
  uint64_t end = 0;
  for (const StreamItem& it : items) {
    uint64_t offset = d.offset(it.var, it.item);
    gaps[it.var].push_back(offset - end);
    end = offset + d.length(it.var, it.item);
  }
  std::vector<uint64_t> defaults;
  for (auto& g : gaps) defaults.push_back(Mode(g));
  return defaults;
}

// Offsets as exceptions to the default gaps, URL switches, and block checkpoints.
void EncodeOffsets(const GroupData& d, const std::vector<StreamItem>& items, GeneratorColumns& g) {
  g.gap_default = DefaultGaps(d, items);
  uint64_t end = 0;
  uint32_t url = UINT32_MAX;
  for (size_t i = 0; i < items.size(); ++i) {
    const StreamItem& it = items[i];
    if (i % g.checkpoint_interval == 0) g.ends.push_back(end);
    uint64_t offset = d.offset(it.var, it.item);
    uint64_t expected = end + g.gap_default[it.var];
    if (offset != expected) {
      g.gap_index.push_back(i);
      g.gap_value.push_back(offset - expected);  // modulo 2^64: negative gaps wrap
    }
    if (d.url(it.var, it.item) != url) {
      url = d.url(it.var, it.item);
      g.file_index.push_back(i);
      g.file_url.push_back(url);
    }
    end = offset + d.length(it.var, it.item);
  }
}

void FillStats(const std::vector<uint64_t>& lengths, GeneratorColumns& g, uint64_t slots) {
  ModalLength modal = FindModalLength(lengths);
  GeneratorStats& s = g.stats;
  s.slots = slots;
  s.skipped = slots - g.references;
  s.unique = modal.others;
  s.modal_length = modal.length;
  s.gaps = g.gap_index.size();
  s.file_switches = g.file_index.empty() ? 0 : g.file_index.size() - 1;
  s.gfactor = slots == 0 ? 0
                         : 1.0 - (static_cast<double>(s.unique) + static_cast<double>(s.skipped)) /
                                     static_cast<double>(slots);
}

}  // namespace

Result<GeneratorColumns> BuildGenerator(std::span<const GroupVariable> vars,
                                        const std::vector<uint64_t>& chunk_grid,
                                        const std::vector<uint32_t>& url_ids,
                                        const BuildOptions& options) {
  uint64_t chunks = vars.empty() ? 0 : vars[0].array->grid().num_chunks();
  if (!CheckedMul(chunks, vars.size())) {
    return InternalError("{} variables of {} chunks exceed 2^64 slots", vars.size(), chunks);
  }
  const uint64_t inner = chunk_grid.size() <= 1 || chunk_grid[0] == 0 ? 1 : chunks / chunk_grid[0];
  GroupData data(vars, url_ids);
  const uint64_t k = options.checkpoint_interval;

  // The order whose offsets, presence and lengths cost least.
  std::optional<StreamOrder> best_order;
  uint64_t best_cost = UINT64_MAX;
  std::vector<uint64_t> candidates = CandidateInterleaves(data, chunks, inner);
  const uint64_t chunk_limit = SampleChunkLimit(data, chunks);
  for (uint64_t interleave : candidates) {
    auto order = StreamOrder::Make(vars.size(), chunks, interleave);
    uint64_t cost = candidates.size() == 1 ? 0 : LayoutCost(data, *order, k, chunk_limit);
    if (cost < best_cost) {
      best_cost = cost;
      best_order = order;
    }
  }
  std::vector<StreamItem> best_items = BuildStream(data, *best_order);

  GeneratorColumns g;
  for (const auto& v : vars) g.variables.push_back(v.array->path());
  g.chunk_grid = chunk_grid;
  g.interleave = best_order->interleave();
  g.references = best_items.size();
  g.checkpoint_interval = k;
  std::vector<uint64_t> slots(best_items.size()), lengths(best_items.size()),
      positions(best_items.size());
  std::vector<uint32_t> var_of(best_items.size());
  for (size_t i = 0; i < best_items.size(); ++i) {
    const StreamItem& it = best_items[i];
    slots[i] = it.slot;
    lengths[i] = data.length(it.var, it.item);
    positions[i] = inner > 1 ? data.chunk(it.var, it.item) % inner : 0;
    var_of[i] = it.var;
  }
  g.presence = Presence::RunsFromSlots(slots);
  LengthInput input{lengths, var_of, positions, vars.size(), inner, k};
  g.lengths = EncodeLengths(input, options.readable);
  EncodeOffsets(data, best_items, g);
  FillStats(lengths, g, best_order->slots());
  return g;
}

}  // namespace kerchunk::pack::internal
