// Plain numeric numpy dtypes ("<i4", ">f8", "|u1") as the element-wise codecs (delta,
// fixedscaleoffset) and the combine step's coordinate reader need them.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace kerchunk::codecs::internal {

/// A numpy integer or float dtype: kind 'i', 'u' or 'f'; size 1, 2, 4 or 8 (floats 4 or 8).
struct NumericType {
  char kind = 'f';
  uint8_t size = 8;
  bool big_endian = false;

  /// Parses "<f8", ">i2", "|u1", "=i4" (native), ... ; nullopt for anything else (bool,
  /// complex, half floats, strings).
  static std::optional<NumericType> Parse(std::string_view dtype);

  bool is_float() const { return kind == 'f'; }
  bool operator==(const NumericType&) const = default;

  /// Reads element `i` of `bytes` as a double / as a two's-complement 64-bit pattern.
  double LoadDouble(const char* bytes, uint64_t i) const;
  uint64_t LoadBits(const char* bytes, uint64_t i) const;
  /// Writes a 64-bit pattern truncated to `size` bytes in this type's byte order.
  void StoreBits(char* bytes, uint64_t i, uint64_t bits) const;
  /// Writes a double as this float type (rounding to float32 for "f4").
  void StoreDouble(char* bytes, uint64_t i, double v) const;
  /// The signed value of an integer element (sign-extended for kind 'i').
  int64_t LoadSigned(const char* bytes, uint64_t i) const;
  /// Whether `v` (an integral double) fits this integer type.
  bool IntegerFits(double v) const;
};

}  // namespace kerchunk::codecs::internal
