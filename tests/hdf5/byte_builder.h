// Little-endian byte strings for hand-built HDF5 structures in parser tests.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

namespace kerchunk::testing {

class Bytes {
 public:
  Bytes& U8(uint64_t v) { return Int(v, 1); }
  Bytes& U16(uint64_t v) { return Int(v, 2); }
  Bytes& U32(uint64_t v) { return Int(v, 4); }
  Bytes& U64(uint64_t v) { return Int(v, 8); }
  Bytes& Int(uint64_t v, int width) {
    for (int i = 0; i < width; ++i) s_.push_back(static_cast<char>((v >> (8 * i)) & 0xFF));
    return *this;
  }
  Bytes& Str(std::string_view text) {
    s_.append(text);
    return *this;
  }
  Bytes& Zeros(size_t n) {
    s_.append(n, '\0');
    return *this;
  }
  Bytes& PadTo(size_t size) {
    if (s_.size() < size) s_.resize(size, '\0');
    return *this;
  }
  size_t size() const { return s_.size(); }
  const std::string& str() const { return s_; }
  std::string& str() { return s_; }
  std::span<const std::byte> span() const { return std::as_bytes(std::span(s_.data(), s_.size())); }

 private:
  std::string s_;
};

}  // namespace kerchunk::testing
