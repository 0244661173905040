// The entropy coder of chunk lengths: Golomb-Rice codes with a parameter chosen per block of
// values, over an LSB-first bit stream. One object encodes and decodes, so that pack and
// unpack cannot drift apart.
//
// Why Rice: length residuals (length minus a prediction) of compressed chunks are roughly
// two-sided geometric/normal; zig-zag folds them to one side, where a Rice code with the best
// parameter for the block costs within ~0.5 bit of the entropy, needs no tables, and decodes at
// a few ns per value with one unaligned load -- which the random-access lookups need. A canonical
// Huffman or ANS coder would save that half bit but needs per-generator tables and is slower to
// resume at a checkpoint. See docs/packed-format.md "Lengths".
#pragma once

#include <bit>
#include <cstdint>
#include <cstring>
#include <span>
#include <string>

namespace kerchunk::pack::internal {

/// Appends bits least-significant first: bit i of the stream is bit (i % 8) of byte i / 8.
class BitWriter {
 public:
  /// Appends the low `n` bits of `bits` (n <= 64).
  void Write(uint64_t bits, unsigned n) {
    if (n == 0) return;
    if (n < 64) bits &= (uint64_t{1} << n) - 1;
    acc_ |= bits << fill_;
    const unsigned room = 64 - fill_;
    if (n < room) {
      fill_ += n;
      return;
    }
    Flush();  // acc_ is full; keep the bits that did not fit
    acc_ = room == 64 ? 0 : bits >> room;
    fill_ = n - room;
  }
  uint64_t bit_count() const { return bytes_.size() * 8 + fill_; }
  /// Room for `bytes` bytes of stream (avoids copying a growing stream).
  void Reserve(size_t bytes) { bytes_.reserve(bytes); }
  /// The bytes, the last one zero-padded.
  std::string Finish();

 private:
  void Flush();

  std::string bytes_;
  uint64_t acc_ = 0;
  unsigned fill_ = 0;  // bits held in acc_ (< 64)
};

/// Reads an LSB-first bit stream whose buffer is followed by at least kPadding readable bytes,
/// so a read near the end never leaves the buffer. Callers bound the position (see RiceCodec).
class BitReader {
 public:
  static constexpr size_t kPadding = 32;

  BitReader(const uint8_t* data, uint64_t position) : data_(data), pos_(position) {}
  /// At least 57 bits starting at the current position.
  uint64_t Peek() const {
    uint64_t word;
    std::memcpy(&word, data_ + (pos_ >> 3), 8);
    if constexpr (std::endian::native == std::endian::big) word = __builtin_bswap64(word);
    return word >> (pos_ & 7);
  }
  void Skip(unsigned n) { pos_ += n; }
  uint64_t position() const { return pos_; }

 private:
  const uint8_t* data_;
  uint64_t pos_;
};

struct RiceCodec {
  /// Largest Rice parameter; values whose quotient reaches kEscapeQuotient are escaped.
  static constexpr unsigned kMaxParameter = 56;
  static constexpr unsigned kEscapeQuotient = 32;
  /// Parameter of a block whose values are all 0: it takes no bits at all.
  static constexpr uint8_t kZeroBlock = 255;
  /// Most bits one value can take (an escaped 64-bit value).
  static constexpr unsigned kMaxBitsPerValue = kEscapeQuotient + 6 + 63;

  /// Bits one value takes with parameter k.
  static uint64_t Bits(uint64_t v, unsigned k) {
    uint64_t q = v >> k;
    if (q < kEscapeQuotient) return q + 1 + k;
    return kEscapeQuotient + 6 + (std::bit_width(v) - 1);
  }
  /// The parameter that codes `values` in the fewest bits (kZeroBlock when all are 0), and
  /// that size in `bits`.
  static uint8_t BestParameter(std::span<const uint64_t> values, uint64_t& bits);
  /// An estimate of the bits BestParameter would find, in one cheap pass (sum(v >> k) taken as
  /// sum(v) / 2^k, escapes ignored): for comparing candidate predictors and orders.
  static uint64_t EstimateBits(std::span<const uint64_t> values);
  /// Appends v coded with parameter k (k <= kMaxParameter).
  static void Put(BitWriter& out, uint64_t v, unsigned k);
  /// Reads one value coded with parameter k. Reads at most kMaxBitsPerValue bits past the
  /// position; the caller checks the position against its block's end after each value.
  static uint64_t Get(BitReader& in, unsigned k) {
    uint64_t window = in.Peek();
    unsigned q = static_cast<unsigned>(std::countr_one(window));
    if (q < kEscapeQuotient) {
      in.Skip(q + 1);
      if (k == 0) return q;
      uint64_t low = in.Peek() & ((uint64_t{1} << k) - 1);
      in.Skip(k);
      return (uint64_t{q} << k) | low;
    }
    return GetEscaped(in);
  }

 private:
  static uint64_t GetEscaped(BitReader& in);
};

}  // namespace kerchunk::pack::internal
