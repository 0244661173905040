#include "length_encoder.h"

#include <algorithm>

#include "kerchunk/util/checked_math.h"

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

// Estimated Rice bits of the sample's lengths under `model`, block by block.
uint64_t SampledBits(const LengthSample& s, const LengthModel& model, uint64_t inner) {
  const uint64_t k = s.checkpoint_interval();
  LengthPredictor predictor(model, inner);
  std::vector<uint64_t> residuals;
  residuals.reserve(std::min<uint64_t>(k, s.lengths.size()));
  uint64_t bits = 0;
  for (size_t i = 0; i < s.lengths.size(); ++i) {
    if (i % k == 0) {
      bits += RiceCodec::EstimateBits(residuals);
      residuals.clear();
      predictor.StartBlock();
    }
    residuals.push_back(predictor.Residual(s.lengths[i], s.vars[i], s.positions[i]));
  }
  return bits + RiceCodec::EstimateBits(residuals);
}

}  // namespace

LengthSample::LengthSample(uint64_t references, uint64_t checkpoint_interval, uint64_t inner)
    : k_(checkpoint_interval), inner_(inner) {
  const uint64_t blocks = std::max<uint64_t>(1, kReferences / k_);  // 64 for k = 256
  stride_ = std::max<uint64_t>(1, CeilDiv(references, k_) / blocks);
  const uint64_t expected = std::min(references, (blocks + 1) * k_);
  lengths.reserve(expected);
  vars.reserve(expected);
  positions.reserve(expected);
}

bool ConsidersPositions(const LengthShape& shape) {
  // A table per position pays off only when each position has several lengths to predict.
  return shape.inner > 1 && shape.variables * shape.inner <= shape.references / 4;
}

std::vector<uint64_t> PositionMedians(std::span<const uint64_t> lengths,
                                      std::span<const uint32_t> vars,
                                      std::span<const uint64_t> positions, uint64_t variables,
                                      uint64_t inner) {
  return GroupMedians(lengths, variables * inner,
                      [&](size_t i) { return vars[i] * inner + positions[i]; });
}

LengthModel ChooseLengthModel(const LengthSample& s, const LengthShape& shape) {
  const IntColumnCodec centers_codec("lengths.centers", ColumnType::kDrifting);
  const auto medians =
      GroupMedians(s.lengths, shape.variables, [&](size_t i) { return s.vars[i]; });
  std::vector<LengthModel> candidates = {{Predictor::kConstant, medians}};
  if (shape.variables <= kMaxPreviousVariables)
    candidates.push_back({Predictor::kPrevious, medians});
  if (ConsidersPositions(shape)) {
    candidates.push_back({Predictor::kPosition, PositionMedians(s.lengths, s.vars, s.positions,
                                                                shape.variables, shape.inner)});
  }
  size_t best = 0;
  uint64_t best_bits = UINT64_MAX;
  for (size_t c = 0; c < candidates.size(); ++c) {
    uint64_t bits = SampledBits(s, candidates[c], shape.inner) +
                    8 * centers_codec.EncodedBytes(candidates[c].centers);
    if (bits < best_bits) {
      best_bits = bits;
      best = c;
    }
  }
  LengthModel chosen = std::move(candidates[best]);
  chosen.bits_per_length =
      s.lengths.empty() ? 0
                        : static_cast<double>(best_bits) / static_cast<double>(s.lengths.size());
  return chosen;
}

LengthEncoder::LengthEncoder(LengthModel model, uint64_t inner, uint64_t checkpoint_interval,
                             bool readable, uint64_t expected)
    : plain_(readable), k_(checkpoint_interval), predictor_(std::move(model), inner) {
  if (plain_) {
    values_.reserve(expected);
    return;
  }
  block_.resize(k_);
  const uint64_t blocks = CeilDiv(expected, k_);
  parameters_.reserve(blocks);
  block_bits_.reserve(blocks);
  // A quarter above the sample's estimate: the stream is written once, without regrowing.
  const double bits = predictor_.model().bits_per_length * static_cast<double>(expected) * 1.25;
  writer_.Reserve(static_cast<size_t>(bits / 8) + 64);
}

void LengthEncoder::FlushBlock() {
  auto block = std::span<const uint64_t>(block_).first(fill_);
  uint64_t bits;
  const uint8_t parameter = RiceCodec::BestParameter(block, bits);
  parameters_.push_back(parameter);
  block_bits_.push_back(writer_.bit_count());
  if (parameter != RiceCodec::kZeroBlock) {
    for (uint64_t v : block) RiceCodec::Put(writer_, v, parameter);
  }
  fill_ = 0;
  predictor_.StartBlock();
}

LengthColumns LengthEncoder::Finish() {
  LengthColumns out;
  if (plain_) {
    out.plain = true;
    out.values = std::move(values_);
    return out;
  }
  if (fill_ > 0) FlushBlock();
  out.predictor = predictor_.model().predictor;
  out.centers = std::move(predictor_.model().centers);
  out.parameters = std::move(parameters_);
  out.block_bits = std::move(block_bits_);
  out.bits = writer_.bit_count();
  out.data = writer_.Finish();
  return out;
}

}  // namespace kerchunk::pack::internal
