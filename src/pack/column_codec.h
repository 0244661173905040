// Integer columns of the packed format: one codec object per column type encodes a vector of
// 64-bit integers to its JSON form and decodes it back, so writer and reader cannot drift apart
// (tensorstore's codec_util.h idea). See docs/packed-format.md "Integer columns".
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "kerchunk/util/status.h"

namespace kerchunk::pack::internal {

/// What the values of a column are, which decides its binary encoding.
enum class ColumnType : uint8_t {
  kUnsigned,       ///< "varint": LEB128 of each value
  kSigned,         ///< "zigzag": zig-zag LEB128 of each value read as a 64-bit two's complement
  kNondecreasing,  ///< "delta": LEB128 of the first value and of each increase
  kDrifting,       ///< "delta-zigzag": zig-zag LEB128 of each difference (mod 2^64)
};

inline uint64_t ZigZag(uint64_t v) {
  return (v << 1) ^ static_cast<uint64_t>(static_cast<int64_t>(v) >> 63);
}
inline uint64_t UnZigZag(uint64_t z) { return (z >> 1) ^ (~(z & 1) + 1); }

/// Appends the LEB128 encoding of `v` (1-10 bytes).
void AppendVarint(std::string& out, uint64_t v);
/// Bytes AppendVarint writes for `v`.
inline size_t VarintSize(uint64_t v) {
  size_t n = 1;
  while (v >= 0x80) {
    v >>= 7;
    ++n;
  }
  return n;
}

/// Where the bytes of binary fields (columns, the lengths stream, inline data) go. By default
/// into the JSON as base64 text. With a blob buffer (the binary container, docs/packed-format.md
/// "Container") they are appended to it raw and the JSON holds "@<offset>+<length>" into it:
/// no base64 to encode at pack time nor to decode at open, and no compressor working through
/// bytes that are already entropy-coded.
class ByteFields {
 public:
  ByteFields() = default;
  explicit ByteFields(std::string* blobs) : blobs_(blobs) {}

  /// Appends the JSON string, quotes included, that stands for `bytes`.
  void Append(std::string_view bytes, std::string& out) const;
  /// The blob buffer; nullptr when bytes are written as base64.
  std::string* blobs() const { return blobs_; }

 private:
  std::string* blobs_ = nullptr;
};

/// The text of a reference to `length` bytes at `offset` of the blob section.
void AppendBlobReference(uint64_t offset, uint64_t length, std::string& out);

class IntColumnCodec {
 public:
  /// `field` names the column in error messages ("gaps.index"); it must outlive the codec (the
  /// format's codecs are constants with literal names).
  IntColumnCodec(std::string_view field, ColumnType type) : field_(field), type_(type) {}

  /// The encoding name written as the column object's key ("varint", "delta", ...).
  std::string_view encoding() const;
  ColumnType type() const { return type_; }
  std::string_view field() const { return field_; }

  /// Appends the column as JSON: {"<encoding>":"<base64 of the bytes>"} (or a blob reference,
  /// see ByteFields), or with `readable` a
  /// plain JSON array of the values (signed columns as negative numbers). Nondecreasing columns
  /// must be given nondecreasing values.
  void Encode(std::span<const uint64_t> values, bool readable, std::string& out,
              const ByteFields& bytes = {}) const;
  /// Bytes of the binary encoding (before base64), for the packer's cost estimates.
  uint64_t EncodedBytes(std::span<const uint64_t> values) const;

  /// Decodes the bytes of a binary column written under `encoding`. Fails (DataLoss, naming the
  /// field) on another encoding name, a truncated or over-long varint, or a decrease in a
  /// nondecreasing column. Memory is bounded by the input: at most one value per byte.
  Result<std::vector<uint64_t>> DecodeBinary(std::string_view encoding,
                                             std::span<const std::byte> bytes) const;
  /// Checks values read from a plain JSON array (nondecreasing columns must not decrease).
  Status CheckPlain(std::span<const uint64_t> values) const;

 private:
  std::string_view field_;
  ColumnType type_;
};

}  // namespace kerchunk::pack::internal
