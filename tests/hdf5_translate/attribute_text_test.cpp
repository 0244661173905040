// Attribute text as JSON holds it: json::ToValidUtf8 replaces each byte that does not start a valid
// UTF-8 sequence with U+FFFD, and FixedStringValue cuts a fixed-length string at its padding.
// Both are checked against plain byte-by-byte definitions on random mixes of ASCII, valid and
// broken multi-byte sequences.
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "hdf5/native_types.h"
#include "kerchunk/json/json_value.h"

namespace kerchunk::hdf5::internal {
namespace {

// The definition, one byte at a time.
std::string ReferenceUtf8(std::string_view s) {
  std::string out;
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
      const auto c1 = static_cast<unsigned char>(s[i + 1]);
      valid = !((len == 2 && c < 0xC2) || (len == 3 && c == 0xE0 && c1 < 0xA0) ||
                (len == 3 && c == 0xED && c1 >= 0xA0) || (len == 4 && c == 0xF0 && c1 < 0x90) ||
                (len == 4 && (c > 0xF4 || (c == 0xF4 && c1 >= 0x90))));
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

std::string RandomText(std::mt19937_64& rng) {
  static const char* const kPieces[] = {"temperature ",
                                        "é",
                                        "°C",
                                        "€",
                                        "𝄞",
                                        "\xC0\xAF",
                                        "\xE0\x80\xAF",
                                        "\xED\xA0\x80",
                                        "\xF4\x90\x80\x80",
                                        "\xE2\x82",
                                        "\x80",
                                        "\xFF",
                                        "\xF0\x9F\x98",
                                        "abcdefgh",
                                        "\0"};
  std::string s;
  const int pieces = static_cast<int>(rng() % 12);
  for (int k = 0; k < pieces; ++k) {
    if (rng() % 4 == 0) {
      s.push_back(static_cast<char>(rng()));
    } else {
      const char* p = kPieces[rng() % std::size(kPieces)];
      s.append(*p ? std::string(p) : std::string(1, '\0'));
    }
  }
  return s;
}

TEST(AttributeTextTest, ToValidUtf8ReplacesExactlyTheInvalidBytes) {
  std::mt19937_64 rng(17);
  for (int trial = 0; trial < 20000; ++trial) {
    const std::string s = RandomText(rng);
    const std::string expected = ReferenceUtf8(s);
    ASSERT_EQ(json::ToValidUtf8(s), expected) << trial;
    ASSERT_EQ(json::IsValidUtf8(s), expected == s) << trial;
  }
  EXPECT_EQ(json::ToValidUtf8("long ASCII text that spans words\xFF!"),
            "long ASCII text that spans words\xEF\xBF\xBD!");
}

// ConvertFixedString to a null-padded string of the same size, trailing NULs removed: what the
// libhdf5 translator reads for a fixed-length string attribute.
std::string ReferenceFixed(std::string_view e, StringPadding padding) {
  std::string s = padding == StringPadding::kNullPad
                      ? std::string(e)
                      : ConvertFixedString(e, padding, e.size(), StringPadding::kNullPad);
  while (!s.empty() && s.back() == '\0') s.pop_back();
  return s;
}

TEST(AttributeTextTest, FixedStringValueCutsAtThePadding) {
  std::mt19937_64 rng(23);
  const char kAlphabet[] = {'a', ' ', '\0', 'z'};
  for (int trial = 0; trial < 20000; ++trial) {
    std::string e(rng() % 10, '\0');
    for (char& c : e) c = kAlphabet[rng() % 4];
    for (auto padding : {StringPadding::kNullTerminate, StringPadding::kNullPad,
                         StringPadding::kSpacePad, static_cast<StringPadding>(7)}) {
      ASSERT_EQ(FixedStringValue(e, padding), ReferenceFixed(e, padding))
          << trial << " padding " << static_cast<int>(padding);
    }
  }
}

}  // namespace
}  // namespace kerchunk::hdf5::internal
