#include "base64_decoder.h"

#include <array>
#include <cstdint>

namespace kerchunk::pack::internal {
namespace {

constexpr char kAlphabet[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
constexpr uint32_t kInvalid = 0x100;  // above any 6-bit value: OR-ing four lookups detects it

constexpr std::array<uint32_t, 256> MakeTable() {
  std::array<uint32_t, 256> t{};
  for (auto& v : t) v = kInvalid;
  for (uint32_t i = 0; i < 64; ++i) t[static_cast<uint8_t>(kAlphabet[i])] = i;
  return t;
}
constexpr auto kTable = MakeTable();

Status Invalid(std::string_view text) {
  for (size_t i = 0; i < text.size(); ++i) {
    if (kTable[static_cast<uint8_t>(text[i])] == kInvalid) {
      return InvalidArgumentError("invalid base64 character at position {}", i);
    }
  }
  return InvalidArgumentError("invalid base64: {} significant characters", text.size());
}

}  // namespace

Status DecodeBase64(std::string_view text, std::string& out, size_t extra_capacity) {
  while (!text.empty() && text.back() == '=') text.remove_suffix(1);
  if (text.size() % 4 == 1) return Invalid(text);
  const size_t full = text.size() / 4, rest = text.size() % 4;
  out.clear();
  out.reserve(full * 3 + 2 + extra_capacity);
  out.resize(full * 3 + (rest ? rest - 1 : 0));
  const auto* in = reinterpret_cast<const uint8_t*>(text.data());
  auto* dst = reinterpret_cast<uint8_t*>(out.data());
  uint32_t bad = 0;
  for (size_t i = 0; i < full; ++i, in += 4, dst += 3) {
    uint32_t a = kTable[in[0]], b = kTable[in[1]], c = kTable[in[2]], d = kTable[in[3]];
    bad |= a | b | c | d;
    uint32_t v = (a << 18) | (b << 12) | (c << 6) | d;
    dst[0] = static_cast<uint8_t>(v >> 16);
    dst[1] = static_cast<uint8_t>(v >> 8);
    dst[2] = static_cast<uint8_t>(v);
  }
  if (rest) {
    uint32_t v = 0;
    for (size_t j = 0; j < rest; ++j) {
      bad |= kTable[in[j]];
      v |= (kTable[in[j]] & 63) << (18 - 6 * j);
    }
    for (size_t j = 0; j + 1 < rest; ++j) dst[j] = static_cast<uint8_t>(v >> (16 - 8 * j));
  }
  if (bad & kInvalid) return Invalid(text);
  return OkStatus();
}

}  // namespace kerchunk::pack::internal
