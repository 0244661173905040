#include "kerchunk/util/base64.h"

#include <array>
#include <cstdint>

namespace kerchunk {
namespace {

constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

constexpr std::array<int8_t, 256> MakeDecodeTable() {
  std::array<int8_t, 256> t{};
  for (auto& v : t) v = -1;
  for (int i = 0; i < 64; ++i) t[static_cast<uint8_t>(kAlphabet[i])] = static_cast<int8_t>(i);
  return t;
}
constexpr auto kDecode = MakeDecodeTable();

}  // namespace

void Base64EncodeTo(std::string_view bytes, std::string& out) {
  // Sized once and written through a pointer: packed files encode megabytes of columns.
  const size_t start = out.size();
  out.resize(start + (bytes.size() + 2) / 3 * 4);
  char* p = out.data() + start;
  size_t i = 0;
  auto byte = [&](size_t k) { return static_cast<uint32_t>(static_cast<uint8_t>(bytes[k])); };
  for (; i + 3 <= bytes.size(); i += 3) {
    uint32_t v = byte(i) << 16 | byte(i + 1) << 8 | byte(i + 2);
    p[0] = kAlphabet[v >> 18];
    p[1] = kAlphabet[(v >> 12) & 63];
    p[2] = kAlphabet[(v >> 6) & 63];
    p[3] = kAlphabet[v & 63];
    p += 4;
  }
  const size_t rest = bytes.size() - i;
  if (rest == 0) return;
  uint32_t v = byte(i) << 16 | (rest == 2 ? byte(i + 1) << 8 : 0);
  p[0] = kAlphabet[v >> 18];
  p[1] = kAlphabet[(v >> 12) & 63];
  p[2] = rest == 2 ? kAlphabet[(v >> 6) & 63] : '=';
  p[3] = '=';
}

std::string Base64Encode(std::string_view bytes) {
  std::string out;
  Base64EncodeTo(bytes, out);
  return out;
}

Result<std::string> Base64Decode(std::string_view text) {
  while (!text.empty() && text.back() == '=') text.remove_suffix(1);
  if (text.size() % 4 == 1) {
    return InvalidArgumentError("invalid base64: {} significant characters", text.size());
  }
  std::string out;
  out.reserve(text.size() * 3 / 4);
  uint32_t acc = 0;
  int bits = 0;
  for (size_t i = 0; i < text.size(); ++i) {
    int8_t v = kDecode[static_cast<uint8_t>(text[i])];
    if (v < 0) return InvalidArgumentError("invalid base64 character at position {}", i);
    acc = (acc << 6) | static_cast<uint32_t>(v);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out += static_cast<char>((acc >> bits) & 0xFF);
    }
  }
  return out;
}

}  // namespace kerchunk
