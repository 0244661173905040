// The vector Adler-32 against zlib's adler32_z, and the zlib codec's own header and trailer
// checks against what inflate with the zlib wrapper refuses.
#include "codecs/adler32.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <zlib.h>

#include <random>
#include <string>

#include "kerchunk/codecs/codec.h"

namespace kerchunk::codecs {
namespace {

using internal::Adler32;
using ::testing::HasSubstr;

uint32_t ZlibAdler(uint32_t start, const std::string& s) {
  return static_cast<uint32_t>(
      adler32_z(start, reinterpret_cast<const Bytef*>(s.data()), s.size()));
}

TEST(Adler32Test, EqualsZlibOnRandomBytesOfEveryLengthAroundTheBlockBounds) {
  std::mt19937_64 rng(5);
  std::vector<size_t> lengths;
  for (size_t n = 0; n < 600; ++n) lengths.push_back(n);
  // zlib's 5552-byte reduction block, the vector block (5536) and their multiples.
  for (size_t base : {5536, 5552, 11072, 11104, 65536, 1 << 20})
    for (size_t d = 0; d < 40; ++d) lengths.push_back(base - 20 + d);
  for (size_t n : lengths) {
    std::string s(n, '\0');
    for (char& c : s) c = static_cast<char>(rng());
    for (uint32_t start : {1u, 0u, 0xFFF0FFF0u, static_cast<uint32_t>(rng()) % 65521 * 65536 + 7})
      ASSERT_EQ(Adler32(start, s), ZlibAdler(start, s)) << n << " bytes from " << start;
  }
}

TEST(Adler32Test, EqualsZlibWhereTheSumsAreLargest) {
  // All 0xFF bytes give the largest sums a block can reach: any overflow of a lane shows here.
  for (size_t n : {255, 5535, 5536, 5537, 5552, 5553, 100000, 4 << 20}) {
    std::string s(n, '\xFF');
    EXPECT_EQ(Adler32(1, s), ZlibAdler(1, s)) << n;
    EXPECT_EQ(Adler32(0xFFF0FFF0u, s), ZlibAdler(0xFFF0FFF0u, s)) << n;
  }
}

TEST(Adler32Test, UnalignedStartsAgree) {
  std::string s(70000, '\0');
  std::mt19937_64 rng(9);
  for (char& c : s) c = static_cast<char>(rng());
  for (size_t skip = 0; skip < 33; ++skip) {
    std::string_view v = std::string_view(s).substr(skip);
    EXPECT_EQ(Adler32(1, v), ZlibAdler(1, std::string(v))) << skip;
  }
}

std::shared_ptr<const Codec> Zlib() {
  return *MakeCodec(*json::Value::Parse(R"({"id": "zlib", "level": 6})"), CodecContext{1});
}

std::string Text(size_t n) {
  std::string s;
  while (s.size() < n) s += "kerchunk references, ";
  s.resize(n);
  return s;
}

TEST(ZlibStreamChecksTest, EveryTrailerFlipIsAnIncorrectDataCheck) {
  std::string raw = Text(100000);
  std::string encoded = *Zlib()->Encode(raw);
  for (size_t at = encoded.size() - 4; at < encoded.size(); ++at) {
    for (int bit = 0; bit < 8; ++bit) {
      std::string bad = encoded;
      bad[at] = static_cast<char>(bad[at] ^ (1 << bit));
      auto r = Zlib()->Decode(bad, DecodedSize::Exactly(raw.size()));
      ASSERT_FALSE(r.ok()) << at << " " << bit;
      EXPECT_EQ(r.status().code(), StatusCode::kDataLoss);
      EXPECT_THAT(r.status().message(), HasSubstr("zlib: corrupt stream: incorrect data check"));
    }
  }
}

TEST(ZlibStreamChecksTest, HeadersZlibRefusesAreRefused) {
  std::string raw = Text(1000);
  std::string encoded = *Zlib()->Encode(raw);
  auto with_header = [&](unsigned cmf, unsigned flg) {
    std::string s = encoded;
    s[0] = static_cast<char>(cmf);
    s[1] = static_cast<char>(flg);
    return s;
  };
  auto fcheck = [](unsigned cmf, unsigned flg) { return flg + (31 - (cmf * 256 + flg) % 31) % 31; };
  struct Case {
    std::string stream;
    const char* message;
  };
  const Case cases[] = {
      {with_header(0x78, 0x9D), "incorrect header check"},
      {with_header(0x77, fcheck(0x77, 0x80)), "unknown compression method"},
      {with_header(0x88, fcheck(0x88, 0x80)), "invalid window size"},
      {with_header(0x78, fcheck(0x78, 0xA0)), "needs a preset dictionary"},
  };
  for (const Case& c : cases) {
    // zlib with its wrapper refuses the same stream.
    uLongf size = raw.size();
    std::string sink(raw.size(), '\0');
    EXPECT_NE(uncompress(reinterpret_cast<Bytef*>(sink.data()), &size,
                         reinterpret_cast<const Bytef*>(c.stream.data()), c.stream.size()),
              Z_OK)
        << c.message;
    auto r = Zlib()->Decode(c.stream, DecodedSize::Exactly(raw.size()));
    ASSERT_FALSE(r.ok()) << c.message;
    EXPECT_EQ(r.status().code(), StatusCode::kDataLoss);
    EXPECT_THAT(r.status().message(), HasSubstr(c.message));
  }
  // Every smaller window a valid header may name still decodes (zlib only records it).
  for (unsigned cinfo = 0; cinfo <= 7; ++cinfo) {
    unsigned cmf = cinfo << 4 | 8;
    auto r = Zlib()->Decode(with_header(cmf, fcheck(cmf, 0x80)), DecodedSize::Exactly(raw.size()));
    ASSERT_TRUE(r.ok()) << cinfo << ": " << r.status().message();
    EXPECT_EQ(*r, raw);
  }
}

TEST(ZlibStreamChecksTest, BytesAfterTheTrailerAreIgnoredAsByPythonsZlib) {
  std::string raw = Text(5000);
  std::string encoded = *Zlib()->Encode(raw) + "trailing garbage";
  auto r = Zlib()->Decode(encoded, DecodedSize::Exactly(raw.size()));
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(*r, raw);
}

}  // namespace
}  // namespace kerchunk::codecs
