// Attribute and fill-value conversion on hand-made values: the cases netCDF-C fixtures cannot
// produce (text that is not UTF-8, a _FillValue of another type or with several values).
#include "kerchunk/netcdf3/attributes.h"

#include <gtest/gtest.h>

namespace kerchunk::netcdf3 {
namespace {

Attribute Text(std::string_view bytes) {
  return {"a", NcType::kChar, bytes.size(), std::string(bytes)};
}

TEST(Netcdf3AttributesTest, TextIsDecodedAsPythonDoesWithReplacement) {
  // Expected strings are Python's bytes.decode("utf-8", "replace").replace("\x00", "").
  const std::string kReplacement = "\xEF\xBF\xBD";
  const std::string r = kReplacement;
  const std::vector<std::pair<std::string_view, std::string>> cases = {
      {"a\xFF"
       "b",
       "a" + r + "b"},
      {"\xE2\x82", r},
      {"\xE2\x82"
       "A",
       r + "A"},
      {"\xF0\x80\x80", r + r + r},
      {"\xED\xA0\x80", r + r + r},
      {"\xF4\x90\x80\x80", r + r + r + r},
      {"\xC0\xAF", r + r},
      {std::string_view("ok\0\0", 4), "ok"},
      {"\xF0\x9F\x98", r},
      {"\xF0\x9F\x98\x80", "\xF0\x9F\x98\x80"},
  };
  for (const auto& [raw, want] : cases) {
    EXPECT_EQ(AttributeJson(Text(raw)).as_string(), want) << raw;
  }
}

// Runs of plain ASCII are copied several bytes at a time: decoding must not depend on where a
// run starts or ends relative to those words. Pieces whose decoding Python gave (above) are
// joined by ASCII runs of every length from 0 to 20, NUL bytes included; a piece cannot merge
// with its neighbours (each ends on a byte that ends any sequence, or is followed by ASCII), so
// the text must decode to the pieces' decodings joined by the runs without their NULs.
TEST(Netcdf3AttributesTest, TextDecodingDoesNotDependOnWhereAsciiRunsFall) {
  const std::string r = "\xEF\xBF\xBD";
  const std::vector<std::pair<std::string, std::string>> pieces = {
      {"\xFF", r},
      {"\xE2\x82", r},
      {"\xF0\x80\x80", r + r + r},
      {"\xC0\xAF", r + r},
      {"\xC3\xA9", "\xC3\xA9"},
      {"\xF0\x9F\x98\x80", "\xF0\x9F\x98\x80"},
      {std::string(1, '\0'), ""},
      {std::string(8, '\0'), ""},
      {std::string(19, '\0'), ""},
  };
  uint64_t state = 42;
  auto next = [&state](uint64_t n) {
    state = state * 6364136223846793005ull + 1442695040888963407ull;
    return (state >> 33) % n;
  };
  for (int trial = 0; trial < 2000; ++trial) {
    std::string raw, want;
    const uint64_t count = next(6);
    for (uint64_t k = 0; k <= count; ++k) {
      const uint64_t run =
          k == 0 ? next(21) : 1 + next(20);  // a piece is never followed by a piece
      for (uint64_t b = 0; b < run; ++b) {
        const char c = next(8) == 0 ? '\0' : static_cast<char>(' ' + next(95));
        raw += c;
        if (c != '\0') want += c;
      }
      if (k == count) break;
      const auto& [bytes, decoded] = pieces[next(pieces.size())];
      raw += bytes;
      want += decoded;
    }
    ASSERT_EQ(AttributeJson(Text(raw)).as_string(), want) << "trial " << trial;
  }
}

TEST(Netcdf3AttributesTest, NumbersAreScalarsOrLists) {
  Attribute one{"n", NcType::kShort, 1, std::string("\xFF\xFE", 2)};
  EXPECT_EQ(AttributeJson(one).Dump(), "-2");
  Attribute two{"n", NcType::kUint, 2, std::string("\xFF\xFF\xFF\xFF\x00\x00\x00\x01", 8)};
  EXPECT_EQ(AttributeJson(two).Dump(), "[4294967295,1]");
  Attribute none{"n", NcType::kDouble, 0, ""};
  EXPECT_EQ(AttributeJson(none).Dump(), "[]");
}

TEST(Netcdf3AttributesTest, FillValueOnlyFromOneValueOfTheVariableType) {
  Variable v;
  v.name = "v";
  v.type = NcType::kInt;
  v.attributes = {{"_FillValue", NcType::kInt, 1, std::string("\xFF\xFF\xFF\x9C", 4)}};
  EXPECT_EQ(FillValueJson(v).Dump(), "-100");
  Header h;
  EXPECT_EQ(VariableAttributesJson(h, v).Dump(), R"({"_ARRAY_DIMENSIONS":[]})");

  // netCDF-C refuses to write these; files from other writers may hold them. The attribute is
  // kept (xarray's CF decoding still masks with it) and no fill_value is claimed.
  v.attributes = {{"_FillValue", NcType::kShort, 1, std::string("\x00\x05", 2)}};
  EXPECT_TRUE(FillValueJson(v).is_null());
  EXPECT_EQ(VariableAttributesJson(h, v).Dump(), R"({"_ARRAY_DIMENSIONS":[],"_FillValue":5})");
  v.attributes = {{"_FillValue", NcType::kInt, 2, std::string(8, '\0')}};
  EXPECT_TRUE(FillValueJson(v).is_null());

  v.type = NcType::kChar;
  v.attributes = {{"_FillValue", NcType::kChar, 1, std::string(1, '\0')}};
  EXPECT_EQ(FillValueJson(v).Dump(), R"("AA==")") << "zarr encodes bytes fill values as base64";
}

}  // namespace
}  // namespace kerchunk::netcdf3
