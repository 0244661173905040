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

}  // namespace kerchunk
