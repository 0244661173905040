#include "codecs/utf8.h"

#include <cstdint>

namespace kerchunk::codecs::internal {
namespace {

// Decodes the code point at s[i], advancing i; returns -1 for malformed input.
int32_t NextCodePoint(std::string_view s, size_t& i) {
  auto byte = [&](size_t k) { return static_cast<uint8_t>(s[k]); };
  uint8_t b0 = byte(i);
  if (b0 < 0x80) {
    ++i;
    return b0;
  }
  int extra;
  int32_t cp;
  int32_t min;
  if ((b0 & 0xE0) == 0xC0) {
    extra = 1, cp = b0 & 0x1F, min = 0x80;
  } else if ((b0 & 0xF0) == 0xE0) {
    extra = 2, cp = b0 & 0x0F, min = 0x800;
  } else if ((b0 & 0xF8) == 0xF0) {
    extra = 3, cp = b0 & 0x07, min = 0x10000;
  } else {
    return -1;
  }
  if (s.size() - i <= static_cast<size_t>(extra)) return -1;  // sequence cut short
  for (int k = 1; k <= extra; ++k) {
    uint8_t b = byte(i + k);
    if ((b & 0xC0) != 0x80) return -1;
    cp = (cp << 6) | (b & 0x3F);
  }
  if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return -1;
  i += extra + 1;
  return cp;
}

void AppendEscape(uint32_t unit, std::string& out) {
  static constexpr char kHex[] = "0123456789abcdef";
  out += "\\u";
  for (int shift = 12; shift >= 0; shift -= 4) out += kHex[(unit >> shift) & 0xF];
}

}  // namespace

bool IsValidUtf8(std::string_view s) {
  size_t i = 0;
  while (i < s.size()) {
    if (NextCodePoint(s, i) < 0) return false;
  }
  return true;
}

void AppendAsciiJsonString(std::string_view s, std::string& out) {
  out += '"';
  size_t i = 0;
  while (i < s.size()) {
    int32_t cp = NextCodePoint(s, i);
    if (cp < 0) {  // callers validate first; keep going without looping forever
      ++i;
      continue;
    }
    switch (cp) {
      case '"':
        out += "\\\"";
        continue;
      case '\\':
        out += "\\\\";
        continue;
      case '\n':
        out += "\\n";
        continue;
      case '\r':
        out += "\\r";
        continue;
      case '\t':
        out += "\\t";
        continue;
      case '\b':
        out += "\\b";
        continue;
      case '\f':
        out += "\\f";
        continue;
      default:
        break;
    }
    if (cp < 0x20 || cp > 0x7E) {
      if (cp >= 0x10000) {
        uint32_t v = static_cast<uint32_t>(cp) - 0x10000;
        AppendEscape(0xD800 + (v >> 10), out);
        AppendEscape(0xDC00 + (v & 0x3FF), out);
      } else {
        AppendEscape(static_cast<uint32_t>(cp), out);
      }
    } else {
      out += static_cast<char>(cp);
    }
  }
  out += '"';
}

}  // namespace kerchunk::codecs::internal
