#include "rice_codec.h"

#include <algorithm>
#include <cmath>

namespace kerchunk::pack::internal {

void BitWriter::Flush() {
  char bytes[8];
  for (int i = 0; i < 8; ++i) bytes[i] = static_cast<char>((acc_ >> (8 * i)) & 0xFF);
  bytes_.append(bytes, 8);
}

std::string BitWriter::Finish() {
  for (unsigned i = 0; i < fill_; i += 8) bytes_ += static_cast<char>((acc_ >> i) & 0xFF);
  acc_ = 0;
  fill_ = 0;
  return std::move(bytes_);
}

uint8_t RiceCodec::BestParameter(std::span<const uint64_t> values, uint64_t& bits) {
  double sum = 0;  // only guides the search: precision does not matter
  uint64_t any = 0;
  for (uint64_t v : values) {
    sum += static_cast<double>(v);
    any |= v;
  }
  if (any == 0) {
    bits = 0;
    return kZeroBlock;
  }
  // For geometric-like values the best k is near log2(mean); try the neighbours exactly.
  double average = sum / static_cast<double>(values.size());
  auto mean = average >= 0x1p63 ? UINT64_MAX : static_cast<uint64_t>(average);
  int guess = std::max(0, static_cast<int>(std::bit_width(mean)) - 1);
  uint8_t best = 0;
  bits = UINT64_MAX;
  for (int k = std::max(0, guess - 1); k <= std::min<int>(kMaxParameter, guess + 1); ++k) {
    uint64_t total = 0;
    for (uint64_t v : values) total += Bits(v, k);
    if (total < bits) {
      bits = total;
      best = static_cast<uint8_t>(k);
    }
  }
  return best;
}

uint64_t RiceCodec::EstimateBits(std::span<const uint64_t> values) {
  double sum = 0;
  for (uint64_t v : values) sum += static_cast<double>(v);
  if (sum == 0) return 0;
  const double n = static_cast<double>(values.size());
  // n * (k + 1) + sum / 2^k is smallest near k = log2(sum * ln 2 / n).
  double best = HUGE_VAL;
  double k0 = std::floor(std::log2(std::max(1.0, sum * 0.6931471805599453 / n)));
  for (double k = std::max(0.0, k0 - 1); k <= std::min<double>(kMaxParameter, k0 + 1); ++k) {
    best = std::min(best, n * (k + 1) + sum / std::exp2(k));
  }
  return static_cast<uint64_t>(best);
}

void RiceCodec::Put(BitWriter& out, uint64_t v, unsigned k) {
  uint64_t q = v >> k;
  if (q < kEscapeQuotient) {
    const uint64_t unary = (uint64_t{1} << q) - 1;  // q ones, then a zero
    const unsigned unary_bits = static_cast<unsigned>(q) + 1;
    if (unary_bits + k <= 64) {  // both parts in one write
      const uint64_t low = k == 0 ? 0 : v & (~uint64_t{0} >> (64 - k));
      out.Write(unary | (low << unary_bits), unary_bits + k);
      return;
    }
    out.Write(unary, unary_bits);
    out.Write(v, k);
    return;
  }
  // Escape: 32 ones, 6 bits of (bit width - 1), then the bits below the leading one.
  out.Write((uint64_t{1} << kEscapeQuotient) - 1, kEscapeQuotient);
  unsigned width = static_cast<unsigned>(std::bit_width(v)) - 1;
  out.Write(width, 6);
  out.Write(v, width);
}

uint64_t RiceCodec::GetEscaped(BitReader& in) {
  in.Skip(kEscapeQuotient);
  unsigned width = static_cast<unsigned>(in.Peek() & 63);
  in.Skip(6);
  uint64_t low;
  if (width <= 56) {
    low = width ? in.Peek() & ((uint64_t{1} << width) - 1) : 0;
    in.Skip(width);
  } else {
    low = in.Peek() & ((uint64_t{1} << 32) - 1);
    in.Skip(32);
    unsigned rest = width - 32;
    low |= (in.Peek() & ((uint64_t{1} << rest) - 1)) << 32;
    in.Skip(rest);
  }
  return (uint64_t{1} << width) | low;
}

}  // namespace kerchunk::pack::internal
