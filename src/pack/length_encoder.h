// Pack side of the length column: the choice of predictor, and the streaming encoder of the
// Rice-coded residuals. The decoding side is GeneratorDecoder::Cursor; both follow
// docs/packed-format.md "Lengths" and are tested against each other with every predictor.
//
// The encoder takes the lengths one by one in stream order and codes each checkpoint block as it
// completes, so packing holds one block of residuals, never a column of the whole generator.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "column_codec.h"
#include "generator.h"
#include "rice_codec.h"

namespace kerchunk::pack::internal {

/// Whole checkpoint blocks of the stream (every `stride`-th), on which predictors are compared:
/// whole blocks, so the kPrevious predictor's state is what the decoder's would be.
class LengthSample {
 public:
  /// The sample of a stream of `references` lengths in blocks of `checkpoint_interval`: whole
  /// blocks, every one when they hold at most ~kReferences lengths, else blocks spread evenly
  /// holding about that many (at least one block). Positions are chunk % `inner` (0 for all
  /// when inner is 1: the kPosition predictor is not considered).
  LengthSample(uint64_t references, uint64_t checkpoint_interval, uint64_t inner);
  static constexpr uint64_t kReferences = 1 << 14;

  /// The next reference of the stream: kept when its block is sampled.
  void Offer(uint64_t length, uint32_t var, uint64_t chunk) {
    if (taking_) {
      lengths.push_back(length);
      vars.push_back(var);
      positions.push_back(inner_ > 1 ? chunk % inner_ : 0);
    }
    if (++in_block_ == k_) {
      in_block_ = 0;
      taking_ = ++block_ % stride_ == 0;
    }
  }
  /// Every reference of the stream is in the sample.
  bool complete() const { return stride_ == 1; }
  uint64_t checkpoint_interval() const { return k_; }

  std::vector<uint64_t> lengths, positions;  ///< in stream order, whole blocks
  std::vector<uint32_t> vars;

 private:
  uint64_t k_, stride_, inner_;
  uint64_t in_block_ = 0, block_ = 0;
  bool taking_ = true;
};

/// A predictor and its parameters (LengthColumns::predictor and centers).
struct LengthModel {
  Predictor predictor = Predictor::kConstant;
  std::vector<uint64_t> centers;
  double bits_per_length = 0;  ///< estimated on the sample (for reserving the stream)
};

/// What the predictors need to know about the generator.
struct LengthShape {
  uint64_t variables = 1;
  uint64_t inner = 1;  ///< chunks per index of the first dimension (positions are chunk % inner)
  uint64_t references = 0;
};

/// The predictor whose residuals on the sample plus whose centers are smallest. Centers are
/// medians of the sample (per variable, or per variable and position); for kPosition on a
/// partial sample the caller should recompute them from every reference (PositionMedians).
LengthModel ChooseLengthModel(const LengthSample& sample, const LengthShape& shape);

/// Whether a kPosition predictor is a candidate (positions used when sampling).
bool ConsidersPositions(const LengthShape& shape);

/// The lower median of each (variable, position) group of lengths, group var * inner + position.
std::vector<uint64_t> PositionMedians(std::span<const uint64_t> lengths,
                                      std::span<const uint32_t> vars,
                                      std::span<const uint64_t> positions, uint64_t variables,
                                      uint64_t inner);

/// Residuals of lengths against a model, in stream order, exactly as the decoder predicts them:
/// kPrevious remembers each variable's last length within the current checkpoint block.
class LengthPredictor {
 public:
  LengthPredictor(LengthModel model, uint64_t inner) : model_(std::move(model)), inner_(inner) {}

  /// At each checkpoint block: the decoder resumes there without the lengths before.
  void StartBlock() { valid_ = 0; }
  /// Zig-zag of the length minus its prediction; `position` (chunk % inner) matters only for
  /// kPosition.
  uint64_t Residual(uint64_t length, uint32_t var, uint64_t position) {
    uint64_t prediction;
    if (model_.predictor == Predictor::kPosition) {
      prediction = model_.centers[var * inner_ + position];
    } else if (model_.predictor == Predictor::kPrevious && ((valid_ >> var) & 1)) {
      prediction = previous_[var];
    } else {  // kConstant, and kPrevious before the variable's first length in the block
      prediction = model_.centers[var];
    }
    if (model_.predictor == Predictor::kPrevious) {
      previous_[var] = length;
      valid_ |= uint64_t{1} << var;
    }
    return ZigZag(length - prediction);
  }

  const LengthModel& model() const { return model_; }
  LengthModel& model() { return model_; }

 private:
  LengthModel model_;
  uint64_t inner_;
  uint64_t previous_[kMaxPreviousVariables] = {};
  uint64_t valid_ = 0;  // bit v: previous_[v] holds a length of this block
};

/// Codes lengths in stream order into a LengthColumns (plain values when `readable`).
class LengthEncoder {
 public:
  /// `expected` lengths will be added (for reserving memory; any number may be).
  LengthEncoder(LengthModel model, uint64_t inner, uint64_t checkpoint_interval, bool readable,
                uint64_t expected);

  /// The next length of the stream; `position` (chunk % inner) matters only for kPosition.
  void Add(uint64_t length, uint32_t var, uint64_t position) {
    if (plain_) {
      values_.push_back(length);
      return;
    }
    block_[fill_] = predictor_.Residual(length, var, position);
    if (++fill_ == k_) FlushBlock();
  }

  /// The columns, after the last length.
  LengthColumns Finish();

 private:
  void FlushBlock();

  bool plain_;
  uint64_t k_;
  LengthPredictor predictor_;
  std::vector<uint64_t> values_;  // plain: every length
  std::vector<uint64_t> block_;   // residuals of the current block
  uint64_t fill_ = 0;
  std::vector<uint64_t> parameters_, block_bits_;
  BitWriter writer_;
};

}  // namespace kerchunk::pack::internal
