// Hand-built NetCDF-3 bytes for tests of malformed headers (what netCDF-C refuses to write).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

namespace kerchunk::testing {

/// Appends big-endian fields; Count() and Offset() use the widths of the format version
/// (1: 4/4 bytes, 2: 4/8, 5: 8/8).
class HeaderBuilder {
 public:
  explicit HeaderBuilder(int version = 1) : version_(version) {}

  /// "CDF" and the version byte.
  HeaderBuilder& Magic() { return Raw(std::string_view("CDF", 3)).U8(version_); }
  HeaderBuilder& Raw(std::string_view s) {
    for (char c : s) bytes_.push_back(static_cast<std::byte>(c));
    return *this;
  }
  HeaderBuilder& U8(uint8_t v) {
    bytes_.push_back(static_cast<std::byte>(v));
    return *this;
  }
  HeaderBuilder& U32(uint32_t v) {
    for (int s = 24; s >= 0; s -= 8) U8(static_cast<uint8_t>(v >> s));
    return *this;
  }
  HeaderBuilder& U64(uint64_t v) {
    for (int s = 56; s >= 0; s -= 8) U8(static_cast<uint8_t>(v >> s));
    return *this;
  }
  HeaderBuilder& Count(uint64_t v) {
    return version_ == 5 ? U64(v) : U32(static_cast<uint32_t>(v));
  }
  HeaderBuilder& Offset(uint64_t v) {
    return version_ == 1 ? U32(static_cast<uint32_t>(v)) : U64(v);
  }
  /// `n` copies of `byte`.
  HeaderBuilder& Fill(size_t n, uint8_t byte = 0) {
    bytes_.insert(bytes_.end(), n, static_cast<std::byte>(byte));
    return *this;
  }
  /// Padding to a multiple of 4 with `byte`.
  HeaderBuilder& Pad(uint8_t byte = 0) { return Fill((4 - bytes_.size() % 4) % 4, byte); }
  /// A name: its length, its bytes, padding.
  HeaderBuilder& Name(std::string_view s, uint8_t pad = 0) {
    return Count(s.size()).Raw(s).Pad(pad);
  }
  /// An empty list (ABSENT).
  HeaderBuilder& Absent() { return U32(0).Count(0); }
  /// The tag and count of a non-empty list: 0x0A dimensions, 0x0B variables, 0x0C attributes.
  HeaderBuilder& List(uint32_t tag, uint64_t count) { return U32(tag).Count(count); }
  HeaderBuilder& Dim(std::string_view name, uint64_t length) { return Name(name).Count(length); }
  /// A variable without attributes: name, dimension ids, type, vsize, begin.
  HeaderBuilder& Var(std::string_view name, std::vector<uint64_t> dims, uint32_t type,
                     uint64_t vsize, uint64_t begin) {
    Name(name).Count(dims.size());
    for (uint64_t d : dims) Count(d);
    return Absent().U32(type).Count(vsize).Offset(begin);
  }

  size_t size() const { return bytes_.size(); }
  std::vector<std::byte>& bytes() { return bytes_; }
  std::span<const std::byte> span() const { return bytes_; }

 private:
  int version_;
  std::vector<std::byte> bytes_;
};

}  // namespace kerchunk::testing
