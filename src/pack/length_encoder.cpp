#include "length_encoder.h"

#include <algorithm>

#include "column_codec.h"
#include "radix_sort.h"
#include "rice_codec.h"

namespace kerchunk::pack::internal {
namespace {

// The lower median of each group of lengths; group g of length i is group_of(i).
template <typename GroupOf>
std::vector<uint64_t> GroupMedians(std::span<const uint64_t> lengths, uint64_t groups,
                                   GroupOf group_of) {
  // Counting sort by group, then a selection per group: O(n), no per-group allocations.
  std::vector<uint64_t> start(groups + 1, 0);
  for (size_t i = 0; i < lengths.size(); ++i) ++start[group_of(i) + 1];
  for (uint64_t g = 0; g < groups; ++g) start[g + 1] += start[g];
  std::vector<uint64_t> sorted(lengths.size());
  std::vector<uint64_t> fill(start.begin(), start.end() - 1);
  for (size_t i = 0; i < lengths.size(); ++i) sorted[fill[group_of(i)]++] = lengths[i];
  std::vector<uint64_t> medians(groups, 0);
  for (uint64_t g = 0; g < groups; ++g) {
    auto first = sorted.begin() + static_cast<ptrdiff_t>(start[g]);
    auto last = sorted.begin() + static_cast<ptrdiff_t>(start[g + 1]);
    if (first == last) continue;
    auto mid = first + (last - first - 1) / 2;
    std::nth_element(first, mid, last);
    medians[g] = *mid;
  }
  return medians;
}

// Zig-zag residuals of the lengths against `predictor`, exactly as the decoder predicts them.
void Residuals(const LengthInput& in, Predictor predictor, const std::vector<uint64_t>& centers,
               std::vector<uint64_t>& out) {
  out.resize(in.lengths.size());
  uint64_t previous[kMaxPreviousVariables];
  uint64_t valid = 0;
  for (size_t i = 0; i < in.lengths.size(); ++i) {
    if (i % in.checkpoint_interval == 0) valid = 0;
    uint64_t var = in.vars[i], prediction = 0;
    switch (predictor) {
      case Predictor::kConstant:
        prediction = centers[var];
        break;
      case Predictor::kPrevious:
        prediction = (valid >> var) & 1 ? previous[var] : centers[var];
        previous[var] = in.lengths[i];
        valid |= uint64_t{1} << var;
        break;
      case Predictor::kPosition:
        prediction = centers[var * in.inner + in.positions[i]];
        break;
    }
    out[i] = ZigZag(in.lengths[i] - prediction);
  }
}

ModalLength ModeBySorting(std::vector<uint64_t>& values) {
  RadixSort(values);
  ModalLength m;
  uint64_t best_count = 0;
  for (size_t i = 0; i < values.size();) {
    size_t j = i;
    while (j < values.size() && values[j] == values[i]) ++j;
    if (j - i > best_count) {
      best_count = j - i;
      m.length = values[i];
    }
    i = j;
  }
  m.others = values.size() - best_count;
  return m;
}

struct Candidate {
  Predictor predictor;
  std::vector<uint64_t> centers;
  uint64_t bits = 0;
};

// Blocks on which predictors are compared: all of them when there are few, else ~kSampleBlocks
// spread over the stream. Whole blocks, so the kPrevious predictor's state is exact.
constexpr size_t kSampleBlocks = 256;

std::vector<size_t> SampleBlockStarts(size_t n, size_t k) {
  const size_t blocks = (n + k - 1) / k;
  const size_t stride = std::max<size_t>(1, blocks / kSampleBlocks);
  std::vector<size_t> starts;
  for (size_t b = 0; b < blocks; b += stride) starts.push_back(b * k);
  return starts;
}

// Estimated Rice bits of the sampled blocks with this predictor.
uint64_t SampledBits(const LengthInput& in, const std::vector<size_t>& starts, Predictor p,
                     const std::vector<uint64_t>& centers) {
  uint64_t bits = 0;
  std::vector<uint64_t> residuals;
  for (size_t start : starts) {
    size_t count = std::min<size_t>(in.checkpoint_interval, in.lengths.size() - start);
    LengthInput block = in;
    block.lengths = in.lengths.subspan(start, count);
    block.vars = in.vars.subspan(start, count);
    block.positions = in.positions.subspan(start, count);
    Residuals(block, p, centers, residuals);
    bits += RiceCodec::EstimateBits(residuals);
  }
  return bits;
}

std::vector<uint64_t> PositionMedians(const LengthInput& in, std::span<const size_t> rows) {
  std::vector<uint64_t> lengths;
  lengths.reserve(rows.size());
  for (size_t i : rows) lengths.push_back(in.lengths[i]);
  return GroupMedians(lengths, in.variables * in.inner, [&](size_t j) {
    return in.vars[rows[j]] * in.inner + in.positions[rows[j]];
  });
}

}  // namespace

LengthColumns EncodeLengths(const LengthInput& in, bool readable) {
  LengthColumns out;
  if (readable) {
    out.plain = true;
    out.values.assign(in.lengths.begin(), in.lengths.end());
    return out;
  }
  const IntColumnCodec centers_codec("lengths.centers", ColumnType::kDrifting);
  const std::vector<size_t> starts = SampleBlockStarts(in.lengths.size(), in.checkpoint_interval);
  std::vector<Candidate> candidates;
  auto medians = GroupMedians(in.lengths, in.variables, [&](size_t i) { return in.vars[i]; });
  candidates.push_back({Predictor::kConstant, medians});
  if (in.variables <= kMaxPreviousVariables) candidates.push_back({Predictor::kPrevious, medians});
  // A table per position pays off only when each position has several lengths to predict.
  const bool position = in.inner > 1 && in.variables * in.inner <= in.lengths.size() / 4;
  if (position) {
    // Compared with medians of the sampled references; recomputed from all if chosen.
    std::vector<size_t> rows;
    for (size_t start : starts) {
      size_t end = std::min<size_t>(start + in.checkpoint_interval, in.lengths.size());
      for (size_t i = start; i < end; ++i) rows.push_back(i);
    }
    candidates.push_back({Predictor::kPosition, PositionMedians(in, rows)});
  }
  size_t best = 0;
  for (size_t c = 0; c < candidates.size(); ++c) {
    candidates[c].bits = SampledBits(in, starts, candidates[c].predictor, candidates[c].centers) +
                         8 * centers_codec.EncodedBytes(candidates[c].centers);
    if (candidates[c].bits < candidates[best].bits) best = c;
  }
  out.predictor = candidates[best].predictor;
  out.centers = std::move(candidates[best].centers);
  if (out.predictor == Predictor::kPosition &&
      starts.size() * in.checkpoint_interval < in.lengths.size()) {
    std::vector<size_t> all(in.lengths.size());
    for (size_t i = 0; i < all.size(); ++i) all[i] = i;
    out.centers = PositionMedians(in, all);
  }
  std::vector<uint64_t> residuals;
  Residuals(in, out.predictor, out.centers, residuals);
  BitWriter writer;
  for (size_t start = 0; start < residuals.size(); start += in.checkpoint_interval) {
    auto block = std::span(residuals).subspan(
        start, std::min<size_t>(in.checkpoint_interval, residuals.size() - start));
    uint64_t bits;
    uint8_t parameter = RiceCodec::BestParameter(block, bits);
    out.parameters.push_back(parameter);
    out.block_bits.push_back(writer.bit_count());
    if (parameter == RiceCodec::kZeroBlock) continue;
    for (uint64_t v : block) RiceCodec::Put(writer, v, parameter);
  }
  out.bits = writer.bit_count();
  out.data = writer.Finish();
  return out;
}

ModalLength FindModalLength(std::span<const uint64_t> lengths) {
  std::vector<uint64_t> copy(lengths.begin(), lengths.end());
  return ModeBySorting(copy);
}

}  // namespace kerchunk::pack::internal
