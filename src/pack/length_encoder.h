// Pack side of the length column: predictors, residuals and the Rice stream. The decoding side
// is GeneratorDecoder::Cursor; both follow docs/packed-format.md "Lengths" and are tested
// against each other with every predictor.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "generator.h"

namespace kerchunk::pack::internal {

/// Chunk lengths in stream order and what the predictors need to know about each.
struct LengthInput {
  std::span<const uint64_t> lengths;
  std::span<const uint32_t> vars;       ///< variable of each length
  std::span<const uint64_t> positions;  ///< chunk % inner of each length
  uint64_t variables = 1;
  uint64_t inner = 1;  ///< chunks per index of the first dimension
  uint64_t checkpoint_interval = 256;
};

/// Encodes the lengths: plain values when `readable`, else the Rice stream of the predictor
/// whose stream plus centers is smallest (compared on up to 256 blocks spread over the stream).
LengthColumns EncodeLengths(const LengthInput& input, bool readable);

/// The most common length (the smallest of equally common ones) and how many lengths differ
/// from it, for the gfactor.
struct ModalLength {
  uint64_t length = 0;
  uint64_t others = 0;
};
ModalLength FindModalLength(std::span<const uint64_t> lengths);

}  // namespace kerchunk::pack::internal
