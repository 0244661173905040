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
#include "value_counter.h"

namespace kerchunk::pack::internal {
namespace {

uint64_t TotalReferences(std::span<const GroupVariable> vars) {
  uint64_t n = 0;
  for (const auto& v : vars) n += v.size();
  return n;
}

// The most common value (the smallest of equally common ones), by sorting.
uint64_t ModeBySorting(std::vector<uint64_t>& values) {
  if (values.empty()) return 0;
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

// ---- Choosing the order, on a sample --------------------------------------------------------

// Each variable's median length, estimated on at most kMedianSample evenly spaced references:
// the centers LayoutCost codes lengths against to compare orders.
constexpr uint64_t kMedianSample = 4096;

std::vector<uint64_t> EstimatedMedians(std::span<const GroupVariable> vars) {
  std::vector<uint64_t> medians;
  std::vector<uint64_t> lengths;
  for (const auto& v : vars) {
    const size_t step = std::max<size_t>(1, v.size() / kMedianSample);
    lengths.clear();
    for (size_t i = 0; i < v.size(); i += step) lengths.push_back(v.lengths[i]);
    if (lengths.empty()) {
      medians.push_back(0);
      continue;
    }
    auto mid = lengths.begin() + static_cast<ptrdiff_t>((lengths.size() - 1) / 2);
    std::nth_element(lengths.begin(), mid, lengths.end());
    medians.push_back(*mid);
  }
  return medians;
}

// Bytes (before base64) of the presence, gap and file columns and of the lengths coded against
// each variable's median, for comparing orders on the chunks below `chunk_limit`.
uint64_t LayoutCost(std::span<const GroupVariable> vars, const StreamOrder& order,
                    const std::vector<uint64_t>& medians, uint64_t k, uint64_t chunk_limit) {
  uint64_t bytes = 0, end = 0, next_slot = 0, run = 0, last_gap = 0, last_switch = 0, i = 0;
  uint64_t bits = 0;
  uint32_t url = UINT32_MAX;
  // A gap costs bytes where it differs from the variable's default gap, which is estimated here
  // as the variable's previous gap (constant strides cost nothing, as with the real default).
  std::vector<uint64_t> previous_gap(vars.size(), 0);
  std::vector<uint64_t> block;
  block.reserve(k);
  ForEachInOrder(
      vars, order,
      [&](uint64_t slot, uint32_t var, uint64_t item) {
        const GroupVariable& v = vars[var];
        if (slot != next_slot || run == 0) {  // a new present run
          if (run) bytes += VarintSize(run);
          bytes += VarintSize(slot - next_slot);
          run = 0;
        }
        ++run;
        next_slot = slot + 1;
        const uint64_t offset = v.offsets[item], gap = offset - end;
        if (gap != previous_gap[var]) {
          bytes += VarintSize(i - last_gap) + VarintSize(ZigZag(gap - previous_gap[var]));
          last_gap = i;
          previous_gap[var] = gap;
        }
        if (v.urls[item] != url) {
          bytes += VarintSize(i - last_switch) + 2;
          last_switch = i;
          url = v.urls[item];
        }
        end = offset + v.lengths[item];
        block.push_back(ZigZag(v.lengths[item] - medians[var]));
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
constexpr uint64_t kSampleReferences = 1 << 14;

uint64_t SampleChunkLimit(std::span<const GroupVariable> vars, uint64_t total, uint64_t chunks) {
  if (total <= 2 * kSampleReferences) return UINT64_MAX;
  auto below = [&](uint64_t limit) {
    uint64_t n = 0;
    for (const auto& v : vars) n += v.LowerBound(limit);
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
// the usual run of chunks the first variable keeps in one file (one file per turn), as seen in
// the chunks below `chunk_limit`.
std::vector<uint64_t> CandidateInterleaves(std::span<const GroupVariable> vars, uint64_t chunks,
                                           uint64_t inner, uint64_t chunk_limit) {
  std::vector<uint64_t> out = {chunks};
  if (vars.size() == 1) return out;  // one variable: every order is the same
  out.push_back(1);
  if (inner > 1 && inner < chunks) out.push_back(inner);
  const GroupVariable& v = vars[0];
  const size_t end = chunk_limit == UINT64_MAX ? v.size() : v.LowerBound(chunk_limit);
  std::map<uint64_t, uint64_t> runs;  // run length -> how many runs
  for (size_t i = 0; i < end;) {
    size_t j = i + 1;
    while (j < end && v.chunks[j] == v.chunks[j - 1] + 1 && v.urls[j] == v.urls[i]) ++j;
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

StreamOrder ChooseOrder(std::span<const GroupVariable> vars, uint64_t total, uint64_t chunks,
                        uint64_t inner, uint64_t k) {
  const uint64_t chunk_limit = SampleChunkLimit(vars, total, chunks);
  const std::vector<uint64_t> candidates = CandidateInterleaves(vars, chunks, inner, chunk_limit);
  std::optional<StreamOrder> best;
  if (candidates.size() == 1) return *StreamOrder::Make(vars.size(), chunks, candidates[0]);
  const std::vector<uint64_t> medians = EstimatedMedians(vars);
  uint64_t best_cost = UINT64_MAX;
  for (uint64_t interleave : candidates) {
    auto order = StreamOrder::Make(vars.size(), chunks, interleave);
    uint64_t cost = LayoutCost(vars, *order, medians, k, chunk_limit);
    if (cost < best_cost) {
      best_cost = cost;
      best = order;
    }
  }
  return *best;
}

// ---- Pass 1: what the encoding needs to know about the whole stream --------------------------

struct Survey {
  Survey(size_t variables, uint64_t total, uint64_t k, uint64_t inner)
      : gap_candidate(variables, 0),
        votes(variables, 0),
        count(variables, 0),
        sample(total, k, inner) {}

  // Each variable's usual gap (offset - end of the reference before) by Boyer-Moore's majority
  // vote: one pass, no memory per reference; the encoding pass confirms it.
  std::vector<uint64_t> gap_candidate, votes, count;
  ValueCounter lengths;  // for the modal length of the statistics
  LengthSample sample;   // for the predictor
};

void SurveyStream(std::span<const GroupVariable> vars, const StreamOrder& order, Survey& s) {
  uint64_t end = 0;
  ForEachInOrder(vars, order, [&](uint64_t, uint32_t var, uint64_t item) {
    const GroupVariable& v = vars[var];
    const uint64_t offset = v.offsets[item], length = v.lengths[item], gap = offset - end;
    if (s.votes[var] == 0) s.gap_candidate[var] = gap;
    if (gap == s.gap_candidate[var]) {
      ++s.votes[var];
    } else {
      --s.votes[var];
    }
    ++s.count[var];
    end = offset + length;
    s.lengths.Add(length);
    s.sample.Offer(length, var, v.chunks[item]);
  });
}

// ---- Pass 2: the columns --------------------------------------------------------------------

// Writes presence, lengths, ends, gaps and files of the stream. Returns, per variable, how many
// of its gaps equal its default.
std::vector<uint64_t> EncodeStream(std::span<const GroupVariable> vars, const StreamOrder& order,
                                   LengthEncoder& lengths, uint64_t inner, bool positions,
                                   GeneratorColumns& g) {
  const uint64_t k = g.checkpoint_interval;
  std::vector<uint64_t> matches(vars.size(), 0);
  PresenceRunBuilder presence;
  uint64_t end = 0, i = 0, in_block = 0;
  uint32_t url = UINT32_MAX;
  const uint64_t* defaults = g.gap_default.data();
  ForEachInOrder(vars, order, [&](uint64_t slot, uint32_t var, uint64_t item) {
    const GroupVariable& v = vars[var];
    const uint64_t offset = v.offsets[item], length = v.lengths[item];
    presence.Add(slot);
    lengths.Add(length, var, positions ? v.chunks[item] % inner : 0);
    if (in_block == 0) g.ends.push_back(end);
    if (++in_block == k) in_block = 0;
    const uint64_t expected = end + defaults[var];
    if (offset != expected) {
      g.gap_index.push_back(i);
      g.gap_value.push_back(offset - expected);  // modulo 2^64: negative gaps wrap
    } else {
      ++matches[var];
    }
    if (v.urls[item] != url) {
      url = v.urls[item];
      g.file_index.push_back(i);
      g.file_url.push_back(url);
    }
    end = offset + length;
    ++i;
  });
  g.presence = presence.Finish();
  return matches;
}

// Rewrites the gap columns for new defaults (after a default was found not to be the mode).
void EncodeGaps(std::span<const GroupVariable> vars, const StreamOrder& order,
                GeneratorColumns& g) {
  g.gap_index.clear();
  g.gap_value.clear();
  uint64_t end = 0, i = 0;
  ForEachInOrder(vars, order, [&](uint64_t, uint32_t var, uint64_t item) {
    const uint64_t offset = vars[var].offsets[item];
    const uint64_t expected = end + g.gap_default[var];
    if (offset != expected) {
      g.gap_index.push_back(i);
      g.gap_value.push_back(offset - expected);
    }
    end = offset + vars[var].lengths[item];
    ++i;
  });
}

// The defaults that were no majority are replaced by their variable's true mode; returns
// whether any changed (the gap columns must then be written again).
bool SettleGapDefaults(std::span<const GroupVariable> vars, const StreamOrder& order,
                       const Survey& s, const std::vector<uint64_t>& matches,
                       std::vector<uint64_t>& defaults) {
  std::vector<bool> unsettled(vars.size());
  bool any = false;
  for (size_t v = 0; v < vars.size(); ++v) {
    unsettled[v] = s.count[v] > 0 && matches[v] * 2 <= s.count[v];
    any = any || unsettled[v];
  }
  if (!any) return false;
  std::vector<std::vector<uint64_t>> gaps(vars.size());
  uint64_t end = 0;
  ForEachInOrder(vars, order, [&](uint64_t, uint32_t var, uint64_t item) {
    const uint64_t offset = vars[var].offsets[item];
    if (unsettled[var]) gaps[var].push_back(offset - end);
    end = offset + vars[var].lengths[item];
  });
  bool changed = false;
  for (size_t v = 0; v < vars.size(); ++v) {
    if (!unsettled[v]) continue;
    const uint64_t mode = ModeBySorting(gaps[v]);
    changed = changed || mode != defaults[v];
    defaults[v] = mode;
  }
  return changed;
}

// The exact per-position medians when kPosition was chosen on a partial sample.
std::vector<uint64_t> AllPositionMedians(std::span<const GroupVariable> vars,
                                         const StreamOrder& order, uint64_t total, uint64_t inner) {
  std::vector<uint64_t> lengths, positions;
  std::vector<uint32_t> var_of;
  lengths.reserve(total);
  positions.reserve(total);
  var_of.reserve(total);
  ForEachInOrder(vars, order, [&](uint64_t, uint32_t var, uint64_t item) {
    lengths.push_back(vars[var].lengths[item]);
    positions.push_back(vars[var].chunks[item] % inner);
    var_of.push_back(var);
  });
  return PositionMedians(lengths, var_of, positions, vars.size(), inner);
}

ValueCounter::Mode ModalLength(std::span<const GroupVariable> vars, const ValueCounter& counter) {
  if (!counter.full()) return counter.Most();
  // More distinct lengths than the counter holds: sort them all (rare: nearly every length
  // differs, so the modal length says little anyway).
  std::vector<uint64_t> lengths;
  for (const auto& v : vars) lengths.insert(lengths.end(), v.lengths.begin(), v.lengths.end());
  ValueCounter::Mode m;
  m.value = ModeBySorting(lengths);
  m.others = static_cast<uint64_t>(
      std::count_if(lengths.begin(), lengths.end(), [&](uint64_t l) { return l != m.value; }));
  return m;
}

void FillStats(const ValueCounter::Mode& modal, GeneratorColumns& g, uint64_t slots) {
  GeneratorStats& s = g.stats;
  s.slots = slots;
  s.skipped = slots - g.references;
  s.unique = modal.others;
  s.modal_length = modal.value;
  s.gaps = g.gap_index.size();
  s.file_switches = g.file_index.empty() ? 0 : g.file_index.size() - 1;
  s.gfactor = slots == 0 ? 0
                         : 1.0 - (static_cast<double>(s.unique) + static_cast<double>(s.skipped)) /
                                     static_cast<double>(slots);
}

}  // namespace

Result<GeneratorColumns> BuildGenerator(std::span<const GroupVariable> vars, uint64_t chunks,
                                        const std::vector<uint64_t>& chunk_grid,
                                        const BuildOptions& options) {
  if (!CheckedMul(chunks, vars.size())) {
    return InternalError("{} variables of {} chunks exceed 2^64 slots", vars.size(), chunks);
  }
  const uint64_t inner = chunk_grid.size() <= 1 || chunk_grid[0] == 0 ? 1 : chunks / chunk_grid[0];
  const uint64_t k = options.checkpoint_interval;
  const uint64_t total = TotalReferences(vars);
  const StreamOrder order = ChooseOrder(vars, total, chunks, inner, k);

  GeneratorColumns g;
  for (const auto& v : vars) g.variables.push_back(v.path);
  g.chunk_grid = chunk_grid;
  g.interleave = order.interleave();
  g.references = total;
  g.checkpoint_interval = k;

  const LengthShape shape{vars.size(), inner, total};
  Survey survey(vars.size(), total, k, ConsidersPositions(shape) ? inner : 1);
  SurveyStream(vars, order, survey);

  LengthModel model;
  if (!options.readable) {
    model = ChooseLengthModel(survey.sample, shape);
    if (model.predictor == Predictor::kPosition && !survey.sample.complete()) {
      model.centers = AllPositionMedians(vars, order, total, inner);
    }
  }
  const bool positions = !options.readable && model.predictor == Predictor::kPosition;
  LengthEncoder lengths(std::move(model), inner, k, options.readable, total);
  g.gap_default = survey.gap_candidate;
  g.ends.reserve(CeilDiv(total, k));

  const std::vector<uint64_t> matches = EncodeStream(vars, order, lengths, inner, positions, g);
  g.lengths = lengths.Finish();
  if (SettleGapDefaults(vars, order, survey, matches, g.gap_default)) EncodeGaps(vars, order, g);
  FillStats(ModalLength(vars, survey.lengths), g, order.slots());
  return g;
}

}  // namespace kerchunk::pack::internal
