// Overflow-checked arithmetic on the 64-bit offsets and lengths read from untrusted files.
#pragma once

#include <cstdint>
#include <optional>

namespace kerchunk {

/// a + b, or nullopt when the sum does not fit in 64 bits.
inline std::optional<uint64_t> CheckedAdd(uint64_t a, uint64_t b) {
  uint64_t r;
  if (__builtin_add_overflow(a, b, &r)) return std::nullopt;
  return r;
}

/// a * b, or nullopt when the product does not fit in 64 bits.
inline std::optional<uint64_t> CheckedMul(uint64_t a, uint64_t b) {
  uint64_t r;
  if (__builtin_mul_overflow(a, b, &r)) return std::nullopt;
  return r;
}

/// ceil(a / b) for b > 0, without the overflow of (a + b - 1) / b.
inline uint64_t CeilDiv(uint64_t a, uint64_t b) { return a / b + (a % b != 0 ? 1 : 0); }

/// True when [offset, offset + length) lies inside [0, size).
inline bool RangeWithin(uint64_t offset, uint64_t length, uint64_t size) {
  return offset <= size && length <= size - offset;
}

/// Division by a fixed divisor d > 0 of numbers that d should divide exactly (a chunk's element
/// offset by the chunk extent), with a multiplication instead of a 64-bit division, which takes
/// tens of cycles and was done per dimension of every chunk of a B-tree. d = m * 2^k with m odd:
/// x is a multiple of d exactly when its low k bits are 0 and (x >> k) * inverse(m) mod 2^64 is
/// at most (2^64 - 1) / m, and that product is then the quotient (Granlund and Montgomery,
/// "Division by invariant integers using multiplication", 1994, section 9).
class ExactDivisor {
 public:
  explicit ExactDivisor(uint64_t d = 1) {
    if (d == 0) d = 1;  // never used so; 1 keeps the object valid
    shift_ = static_cast<unsigned>(__builtin_ctzll(d));
    const uint64_t odd = d >> shift_;
    // Newton's iteration doubles the correct low bits of the inverse: odd * odd = 1 mod 8 gives
    // 3, then 6, 12, 24, 48 and 96 >= 64.
    uint64_t inverse = odd;
    for (int i = 0; i < 5; ++i) inverse *= 2 - odd * inverse;
    inverse_ = inverse;
    max_quotient_ = ~uint64_t{0} / odd;
    low_mask_ = (uint64_t{1} << shift_) - 1;
  }

  /// x / d when d divides x, else nullopt.
  std::optional<uint64_t> Divide(uint64_t x) const {
    if ((x & low_mask_) != 0) return std::nullopt;
    const uint64_t q = (x >> shift_) * inverse_;
    if (q > max_quotient_) return std::nullopt;
    return q;
  }

 private:
  uint64_t inverse_ = 1;       // inverse of the odd part modulo 2^64
  uint64_t max_quotient_ = 0;  // (2^64 - 1) / odd part
  uint64_t low_mask_ = 0;      // the low `shift_` bits
  unsigned shift_ = 0;         // trailing zero bits of d
};

}  // namespace kerchunk
