// Helpers shared by both attribute readers; see attribute_set.h.
#include "hdf5/attribute_set.h"

#include <array>

namespace kerchunk::hdf5::internal {
namespace {

constexpr std::array<std::string_view, 8> kHiddenAttributes = {
    "REFERENCE_LIST",      "CLASS",       "DIMENSION_LIST", "NAME", "_Netcdf4Dimid",
    "_Netcdf4Coordinates", "_nc3_strict", "_NCProperties"};

}  // namespace

bool IsHiddenAttribute(std::string_view name) {
  for (std::string_view h : kHiddenAttributes) {
    if (h == name) return true;
  }
  return false;
}

std::string ToValidUtf8(std::string_view s) {
  std::string out;
  out.reserve(s.size());
  size_t i = 0;
  while (i < s.size()) {
    const auto c = static_cast<unsigned char>(s[i]);
    size_t len = c < 0x80           ? 1
                 : (c >> 5) == 0x6  ? 2
                 : (c >> 4) == 0xE  ? 3
                 : (c >> 3) == 0x1E ? 4
                                    : 0;
    bool valid = len > 0 && i + len <= s.size();
    for (size_t k = 1; valid && k < len; ++k) {
      valid = (static_cast<unsigned char>(s[i + k]) & 0xC0) == 0x80;
    }
    if (valid && len > 1) {
      // Reject overlong forms and surrogates, which Python's decoder rejects too.
      const auto c1 = static_cast<unsigned char>(s[i + 1]);
      if ((len == 2 && c < 0xC2) || (len == 3 && c == 0xE0 && c1 < 0xA0) ||
          (len == 3 && c == 0xED && c1 >= 0xA0) || (len == 4 && c == 0xF0 && c1 < 0x90) ||
          (len == 4 && (c > 0xF4 || (c == 0xF4 && c1 >= 0x90)))) {
        valid = false;
      }
    }
    if (valid) {
      out.append(s.substr(i, len));
      i += len;
    } else {
      out.append("\xEF\xBF\xBD");
      ++i;
    }
  }
  return out;
}

}  // namespace kerchunk::hdf5::internal
