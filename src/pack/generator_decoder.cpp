#include "generator_decoder.h"

#include <algorithm>

#include "column_codec.h"
#include "kerchunk/util/checked_math.h"

namespace kerchunk::pack::internal {
namespace {

constexpr uint64_t kMaxCheckpointInterval = 65536;

Status CheckStrictlyIncreasing(std::span<const uint64_t> v, uint64_t limit,
                               std::string_view field) {
  for (size_t i = 0; i < v.size(); ++i) {
    if (i > 0 && v[i] <= v[i - 1]) {
      return DataLossError("\"{}\": entry {} ({}) is not greater than the one before ({})", field,
                           i, v[i], v[i - 1]);
    }
    if (v[i] >= limit) {
      return DataLossError("\"{}\": entry {} ({}) is out of range: there are {} references", field,
                           i, v[i], limit);
    }
  }
  return OkStatus();
}

}  // namespace

Result<GeneratorDecoder> GeneratorDecoder::Make(GeneratorColumns columns, uint64_t url_count) {
  GeneratorDecoder g;
  g.columns_ = std::move(columns);
  KERCHUNK_RETURN_IF_ERROR(g.Validate(url_count));
  return g;
}

Status GeneratorDecoder::Validate(uint64_t url_count) {
  const GeneratorColumns& c = columns_;
  if (c.variables.empty()) return DataLossError("\"variables\" is empty");
  uint64_t chunks = 1;
  for (uint64_t n : c.chunk_grid) {
    auto product = CheckedMul(chunks, n);
    if (!product) return DataLossError("\"chunk_grid\" has more than 2^64 chunks");
    chunks = *product;
  }
  inner_ = c.chunk_grid.size() <= 1 || c.chunk_grid[0] == 0 ? 1 : chunks / c.chunk_grid[0];
  auto order = StreamOrder::Make(c.variables.size(), chunks, c.interleave);
  if (!order) {
    return DataLossError("\"interleave\" {} is invalid or the {} variables x {} chunks exceed 2^64",
                         c.interleave, c.variables.size(), chunks);
  }
  order_ = *order;
  if (c.checkpoint_interval == 0 || c.checkpoint_interval > kMaxCheckpointInterval) {
    return DataLossError("\"checkpoint_interval\" must be in 1..{}, got {}", kMaxCheckpointInterval,
                         c.checkpoint_interval);
  }
  KERCHUNK_ASSIGN_OR_RETURN(presence_, Presence::FromRuns(c.presence, order_.slots()));
  if (presence_.present() != c.references) {
    return DataLossError("\"presence\" marks {} slots present but \"references\" is {}",
                         presence_.present(), c.references);
  }
  const uint64_t blocks = CeilDiv(c.references, c.checkpoint_interval);
  if (c.ends.size() != blocks) {
    return DataLossError("\"ends\" has {} checkpoints, expected {} ({} references / {})",
                         c.ends.size(), blocks, c.references, c.checkpoint_interval);
  }
  if (blocks > 0 && c.ends[0] != 0) {
    return DataLossError("\"ends\": the first checkpoint must be 0, got {}", c.ends[0]);
  }
  KERCHUNK_RETURN_IF_ERROR(ValidateLengths(blocks));
  KERCHUNK_RETURN_IF_ERROR(CheckStrictlyIncreasing(c.gap_index, c.references, "gaps.index"));
  if (c.gap_default.size() != c.variables.size()) {
    return DataLossError("\"gaps.default\" has {} values for {} variables", c.gap_default.size(),
                         c.variables.size());
  }
  if (c.gap_value.size() != c.gap_index.size()) {
    return DataLossError("\"gaps\": {} indexes but {} values", c.gap_index.size(),
                         c.gap_value.size());
  }
  KERCHUNK_RETURN_IF_ERROR(CheckStrictlyIncreasing(c.file_index, c.references, "files.index"));
  if (c.file_url.size() != c.file_index.size()) {
    return DataLossError("\"files\": {} indexes but {} URLs", c.file_index.size(),
                         c.file_url.size());
  }
  if (c.references > 0 && (c.file_index.empty() || c.file_index[0] != 0)) {
    return DataLossError("\"files\": the first reference has no URL (files.index must start at 0)");
  }
  for (size_t i = 0; i < c.file_url.size(); ++i) {
    if (c.file_url[i] >= url_count) {
      return DataLossError("\"files.url\": entry {} is URL {}, but the file lists {} URLs", i,
                           c.file_url[i], url_count);
    }
  }
  return OkStatus();
}

Status GeneratorDecoder::ValidateLengths(uint64_t blocks) {
  const LengthColumns& l = columns_.lengths;
  const uint64_t n = columns_.references, k = columns_.checkpoint_interval;
  if (l.plain) {
    if (l.values.size() != n) {
      return DataLossError("\"lengths.values\" has {} lengths, expected {}", l.values.size(), n);
    }
    for (size_t i = 0; i < n; ++i) {
      if (l.values[i] == UINT64_MAX) {
        return DataLossError("\"lengths.values\": entry {} is not a valid length", i);
      }
    }
    return OkStatus();
  }
  const uint64_t vars = columns_.variables.size();
  uint64_t expected_centers = vars;
  if (l.predictor == Predictor::kPosition) {
    auto product = CheckedMul(vars, inner_);
    if (!product) return DataLossError("\"lengths.centers\": too many positions");
    expected_centers = *product;
  }
  if (l.predictor == Predictor::kPrevious && vars > kMaxPreviousVariables) {
    return DataLossError("predictor \"previous\" supports at most {} variables, got {}",
                         kMaxPreviousVariables, vars);
  }
  if (l.centers.size() != expected_centers) {
    return DataLossError("\"lengths.centers\" has {} values, predictor \"{}\" needs {}",
                         l.centers.size(), PredictorName(l.predictor), expected_centers);
  }
  if (l.parameters.size() != blocks || l.block_bits.size() != blocks) {
    return DataLossError(
        "\"lengths\": {} parameters and {} block positions for {} blocks of {} references",
        l.parameters.size(), l.block_bits.size(), blocks, k);
  }
  if (blocks == 0 && l.bits != 0) {
    return DataLossError("\"lengths\": {} bits for no references", l.bits);
  }
  if (l.data.size() != CeilDiv(l.bits, 8)) {
    return DataLossError("\"lengths.data\" holds {} bytes but \"bits\" is {}", l.data.size(),
                         l.bits);
  }
  parameters_.resize(blocks);
  for (uint64_t b = 0; b < blocks; ++b) {
    uint64_t start = l.block_bits[b];
    uint64_t end = b + 1 < blocks ? l.block_bits[b + 1] : l.bits;
    if ((b == 0 && start != 0) || end < start || end > l.bits) {
      return DataLossError("\"lengths.block_bits\": block {} spans bits {}..{} of {}", b, start,
                           end, l.bits);
    }
    uint64_t p = l.parameters[b];
    uint64_t count = std::min(k, n - b * k);
    bool zero = p == RiceCodec::kZeroBlock;
    if (!zero && p > RiceCodec::kMaxParameter) {
      return DataLossError("\"lengths.parameters\": block {} has parameter {}", b, p);
    }
    // Each value takes 1..kMaxBitsPerValue bits (none in an all-zero block).
    if (zero ? end != start
             : (end - start < count || end - start > count * RiceCodec::kMaxBitsPerValue)) {
      return DataLossError("\"lengths\": block {} has {} bits for {} values with parameter {}", b,
                           end - start, count, p);
    }
    parameters_[b] = static_cast<uint8_t>(p);
  }
  // The stream moves out of the columns (the reader reserved room for the padding).
  stream_ = std::move(columns_.lengths.data);
  stream_.append(BitReader::kPadding, '\0');
  return OkStatus();
}

GeneratorDecoder::Cursor GeneratorDecoder::StartAt(uint64_t index) const {
  Cursor c(*this);
  const uint64_t k = columns_.checkpoint_interval;
  c.block_ = index / k;
  c.next_ = c.block_ * k;
  c.end_ = columns_.ends[c.block_];
  const auto& gi = columns_.gap_index;
  c.gap_pos_ = static_cast<size_t>(std::lower_bound(gi.begin(), gi.end(), c.next_) - gi.begin());
  const auto& fi = columns_.file_index;
  c.file_pos_ = static_cast<size_t>(std::upper_bound(fi.begin(), fi.end(), c.next_) - fi.begin());
  c.url_ = static_cast<uint32_t>(columns_.file_url[c.file_pos_ - 1]);
  c.run_ = presence_.RunOfIndex(c.next_);
  uint64_t within = c.next_ - presence_.run_first_index(c.run_);
  c.slot_ = order_.At(presence_.run_start(c.run_) + within);
  c.run_left_ = presence_.run_length(c.run_) - within;
  c.EnterLengthBlock(c.block_);
  return c;
}

void GeneratorDecoder::Cursor::EnterLengthBlock(uint64_t block) {
  const GeneratorColumns& c = g_->columns_;
  block_ = block;
  block_end_ = std::min(c.references, (block + 1) * c.checkpoint_interval);
  previous_valid_ = 0;
  if (c.lengths.plain) return;
  const auto& bits = c.lengths.block_bits;
  reader_ = BitReader(g_->stream_bytes(), bits[block]);
  bit_limit_ = block + 1 < bits.size() ? bits[block + 1] : c.lengths.bits;
  parameter_ = g_->parameters_[block];
  zero_block_ = parameter_ == RiceCodec::kZeroBlock;
}

uint64_t GeneratorDecoder::Cursor::PredictLength(uint64_t var, uint64_t chunk) const {
  const LengthColumns& l = g_->columns_.lengths;
  switch (l.predictor) {
    case Predictor::kConstant:
      return l.centers[var];
    case Predictor::kPrevious:
      return (previous_valid_ >> var) & 1 ? previous_[var] : l.centers[var];
    case Predictor::kPosition:
      return l.centers[var * g_->inner_ + chunk % g_->inner_];
  }
  return 0;
}

bool GeneratorDecoder::Cursor::Step(DecodedRef& out) {
  const GeneratorColumns& c = g_->columns_;
  const uint64_t i = next_;
  if (i == block_end_) {
    if (!c.lengths.plain && reader_.position() != bit_limit_) {
      return Fail(DataLossError("\"lengths\": block {} ends at bit {}, expected {}", block_,
                                reader_.position(), bit_limit_));
    }
    if (c.ends[block_ + 1] != end_) {
      return Fail(
          DataLossError("\"ends\": checkpoint {} is {}, but the references before it "
                        "end at {}",
                        block_ + 1, c.ends[block_ + 1], end_));
    }
    EnterLengthBlock(block_ + 1);
  }
  const uint64_t var = slot_.var(), chunk = slot_.chunk();
  uint64_t length;
  if (c.lengths.plain) {
    length = c.lengths.values[i];
  } else {
    uint64_t residual = 0;
    if (!zero_block_) {
      residual = RiceCodec::Get(reader_, parameter_);
      if (reader_.position() > bit_limit_) {
        return Fail(
            DataLossError("\"lengths\": reference {} runs past the end of block {}", i, block_));
      }
    }
    length = PredictLength(var, chunk) + UnZigZag(residual);
    if (length == UINT64_MAX) {
      return Fail(DataLossError("\"lengths\": reference {} has an invalid length", i));
    }
    if (c.lengths.predictor == Predictor::kPrevious) {
      previous_[var] = length;
      previous_valid_ |= uint64_t{1} << var;
    }
  }
  uint64_t gap = 0;
  if (gap_pos_ < c.gap_index.size() && c.gap_index[gap_pos_] == i) gap = c.gap_value[gap_pos_++];
  if (file_pos_ < c.file_index.size() && c.file_index[file_pos_] == i) {
    url_ = static_cast<uint32_t>(c.file_url[file_pos_++]);
  }
  out.index = i;
  out.var = var;
  out.chunk = chunk;
  out.url = url_;
  out.offset = end_ + c.gap_default[var] + gap;  // modulo 2^64, as the packer computed it
  out.length = length;
  end_ = out.offset + length;
  ++next_;
  if (--run_left_ > 0) {
    slot_.Next();
  } else if (++run_ < g_->presence_.run_count()) {
    slot_ = g_->order_.At(g_->presence_.run_start(run_));
    run_left_ = g_->presence_.run_length(run_);
  }
  return true;
}

Status GeneratorDecoder::Cursor::Finish() const {
  const GeneratorColumns& c = g_->columns_;
  if (next_ != c.references) {
    return InternalError("decoded {} of {} references", next_, c.references);
  }
  if (!c.lengths.plain && c.references > 0 && reader_.position() != bit_limit_) {
    return DataLossError("\"lengths\": the stream has {} bits, decoding used {}", bit_limit_,
                         reader_.position());
  }
  return OkStatus();
}

std::string_view PredictorName(Predictor p) {
  switch (p) {
    case Predictor::kConstant:
      return "constant";
    case Predictor::kPrevious:
      return "previous";
    case Predictor::kPosition:
      return "position";
  }
  return "?";
}

}  // namespace kerchunk::pack::internal
