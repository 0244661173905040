// A bounds-checked little-endian reader over an immutable byte span: the only way this library
// parses bytes of an untrusted file (tensorstore's zip_details.cc / codec_util.cc style).
//
// Every read checks the remaining size first and returns a DataLoss error naming the absolute
// file address (base + position) and what was being read. Sub-records are read through a reader
// of exact length (Sub), and ExpectEnd() checks that a record was consumed completely.
#pragma once

#include <bit>
#include <cassert>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <span>
#include <string_view>

#include "kerchunk/util/checked_math.h"
#include "kerchunk/util/status.h"

namespace kerchunk {

static_assert(std::endian::native == std::endian::little || std::endian::native == std::endian::big,
              "mixed-endian hosts are not supported");

/// Reverses the byte order of an unsigned integer (std::byteswap is C++23).
template <typename T>
constexpr T ByteSwap(T v) {
  if constexpr (sizeof(T) == 1) return v;
  if constexpr (sizeof(T) == 2) return static_cast<T>(__builtin_bswap16(v));
  if constexpr (sizeof(T) == 4) return static_cast<T>(__builtin_bswap32(v));
  if constexpr (sizeof(T) == 8) return static_cast<T>(__builtin_bswap64(v));
}

/// The little-endian T at `at` of `bytes`, for the fields of a fixed-layout record whose whole
/// length a ByteReader already checked (ByteReader::Bytes): the offsets are the layout's, and
/// this costs one load where reading each field through the reader costs a check and a Result.
template <typename T>
T LoadLittleEndian(std::span<const std::byte> bytes, size_t at) {
  assert(at <= bytes.size() && sizeof(T) <= bytes.size() - at);
  T v;
  std::memcpy(&v, bytes.data() + at, sizeof(T));
  if constexpr (std::endian::native == std::endian::big) v = ByteSwap(v);
  return v;
}

/// An unsigned little-endian integer of `width` bytes (1..8) at `at` of `bytes`, as
/// LoadLittleEndian. HDF5 addresses and lengths are 8 bytes in almost every file: one load, not
/// a byte loop.
inline uint64_t LoadLittleEndianVar(std::span<const std::byte> bytes, size_t at, unsigned width) {
  assert(width >= 1 && width <= 8 && at <= bytes.size() && width <= bytes.size() - at);
  if (width == 8) return LoadLittleEndian<uint64_t>(bytes, at);
  if (width == 4) return LoadLittleEndian<uint32_t>(bytes, at);
  uint64_t v = 0;
  for (unsigned i = 0; i < width; ++i) {
    v |= static_cast<uint64_t>(std::to_integer<uint8_t>(bytes[at + i])) << (8 * i);
  }
  return v;
}

class ByteReader {
 public:
  /// Reads `bytes`; `base` is the file address of bytes[0], used only in error messages and
  /// address(). Use what() to name the structure (e.g. "fixed array data block").
  explicit ByteReader(std::span<const std::byte> bytes, uint64_t base = 0,
                      std::string_view what = "record")
      : bytes_(bytes), base_(base), what_(what) {}

  uint64_t position() const { return pos_; }
  uint64_t size() const { return bytes_.size(); }
  uint64_t remaining() const { return bytes_.size() - pos_; }
  /// File address of the next byte to read.
  uint64_t address() const { return base_ + pos_; }
  std::span<const std::byte> bytes() const { return bytes_; }

  /// Moves to `position` (relative to the start of this reader).
  Status Seek(uint64_t position);
  Status Skip(uint64_t n);

  Result<uint8_t> U8(std::string_view field = "u8") { return ReadLE<uint8_t>(field); }
  Result<uint16_t> U16(std::string_view field = "u16") { return ReadLE<uint16_t>(field); }
  Result<uint32_t> U32(std::string_view field = "u32") { return ReadLE<uint32_t>(field); }
  Result<uint64_t> U64(std::string_view field = "u64") { return ReadLE<uint64_t>(field); }
  /// Big-endian 32/64-bit reads (netCDF-3 is big-endian).
  Result<uint32_t> U32BE(std::string_view field = "u32");
  Result<uint64_t> U64BE(std::string_view field = "u64");

  /// An unsigned little-endian integer of `width` bytes (1..8), as HDF5's "size of offsets" and
  /// variable-width fields need.
  Result<uint64_t> UVar(unsigned width, std::string_view field = "integer");

  /// The next `n` bytes, without copying.
  Result<std::span<const std::byte>> Bytes(uint64_t n, std::string_view field = "bytes");
  /// The next `n` bytes as a string_view (for signatures and names).
  Result<std::string_view> Chars(uint64_t n, std::string_view field = "chars");
  /// Checks that the next bytes equal `signature` (e.g. "TREE") and consumes them.
  Status ExpectSignature(std::string_view signature);

  /// A reader over the next `n` bytes, consuming them from this reader.
  Result<ByteReader> Sub(uint64_t n, std::string_view what);
  /// Fails unless every byte has been consumed.
  Status ExpectEnd() const;

  /// An error "<what> at address A: <message>" for structure-level problems found by callers.
  Status Error(std::string_view message) const;

 private:
  template <typename T>
  Result<T> ReadLE(std::string_view field) {
    if (remaining() < sizeof(T)) return Truncated(sizeof(T), field);
    const T v = LoadLittleEndian<T>(bytes_, pos_);
    pos_ += sizeof(T);
    return v;
  }
  Status Truncated(uint64_t wanted, std::string_view field) const;

  std::span<const std::byte> bytes_;
  uint64_t base_ = 0;
  uint64_t pos_ = 0;
  std::string_view what_;
};

}  // namespace kerchunk
