// Encode/decode round trips with random data for every codec and a mix of parameters.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <random>

#include "kerchunk/codecs/codec.h"

namespace kerchunk::codecs {
namespace {

// Random bytes that compress somewhat: runs, small integers and noise mixed.
std::string RandomData(std::mt19937_64& rng, size_t n) {
  std::string s(n, '\0');
  size_t i = 0;
  while (i < n) {
    size_t run = 1 + rng() % 64;
    int mode = static_cast<int>(rng() % 3);
    char c = static_cast<char>(rng());
    for (size_t k = 0; k < run && i < n; ++k, ++i) {
      s[i] = mode == 0 ? c : mode == 1 ? static_cast<char>(i % 7) : static_cast<char>(rng());
    }
  }
  return s;
}

std::shared_ptr<const Codec> Make(const std::string& config_json, uint64_t itemsize) {
  auto config = json::Value::Parse(config_json);
  EXPECT_TRUE(config.ok()) << config_json;
  auto codec = MakeCodec(*config, CodecContext{itemsize});
  EXPECT_TRUE(codec.ok()) << config_json << ": " << codec.status().ToString();
  return codec.ok() ? *codec : nullptr;
}

void ExpectRoundTrip(const std::string& config_json, uint64_t itemsize, std::mt19937_64& rng) {
  auto codec = Make(config_json, itemsize);
  ASSERT_NE(codec, nullptr);
  for (size_t items : {0, 1, 3, 100, 1000, 20000}) {
    std::string raw = RandomData(rng, items * itemsize);
    auto encoded = codec->Encode(raw);
    ASSERT_TRUE(encoded.ok()) << config_json << ": " << encoded.status().ToString();
    auto decoded = codec->Decode(*encoded, DecodedSize::Exactly(raw.size()));
    ASSERT_TRUE(decoded.ok()) << config_json << " (" << raw.size()
                              << " bytes): " << decoded.status().ToString();
    EXPECT_EQ(*decoded, raw) << config_json << " (" << raw.size() << " bytes)";
    auto bounded = codec->Decode(*encoded, DecodedSize::AtMost(raw.size() + 10));
    ASSERT_TRUE(bounded.ok()) << config_json << ": " << bounded.status().ToString();
    EXPECT_EQ(*bounded, raw);
    // The config reproduces the codec.
    auto again = MakeCodec(codec->Config(), CodecContext{itemsize});
    ASSERT_TRUE(again.ok()) << codec->Config().Dump();
    EXPECT_EQ((*again)->Config(), codec->Config());
  }
}

TEST(CodecRoundTripTest, ZlibAndGzipAllLevels) {
  std::mt19937_64 rng(1);
  for (int level = -1; level <= 9; ++level) {
    ExpectRoundTrip(fmt::format(R"({{"id": "zlib", "level": {}}})", level), 1, rng);
    ExpectRoundTrip(fmt::format(R"({{"id": "gzip", "level": {}}})", level), 1, rng);
  }
}

TEST(CodecRoundTripTest, ZstdLevels) {
  std::mt19937_64 rng(2);
  for (int level : {-5, 0, 1, 3, 9, 19}) {
    ExpectRoundTrip(fmt::format(R"({{"id": "zstd", "level": {}}})", level), 1, rng);
  }
}

TEST(CodecRoundTripTest, BloscCompressorsShufflesTypesizes) {
  std::mt19937_64 rng(3);
  for (const char* cname : {"blosclz", "lz4", "lz4hc", "zlib", "zstd"}) {
    for (int shuffle : {-1, 0, 1, 2}) {
      for (uint64_t typesize : {1, 2, 4, 8}) {
        int clevel = static_cast<int>(rng() % 10);
        int blocksize = rng() % 2 ? 0 : 4096;
        ExpectRoundTrip(
            fmt::format(R"({{"id": "blosc", "cname": "{}", "clevel": {}, "shuffle": {}, )"
                        R"("blocksize": {}}})",
                        cname, clevel, shuffle, blocksize),
            typesize, rng);
      }
    }
  }
}

TEST(CodecRoundTripTest, ShuffleElementSizes) {
  std::mt19937_64 rng(4);
  for (uint64_t size : {0, 1, 2, 3, 4, 8, 16}) {
    ExpectRoundTrip(fmt::format(R"({{"id": "shuffle", "elementsize": {}}})", size),
                    std::max<uint64_t>(size, 1), rng);
  }
}

TEST(CodecRoundTripTest, DeltaIntegerTypes) {
  std::mt19937_64 rng(5);
  for (const char* t : {"|i1", "|u1", "<i2", ">u2", "<i4", ">i4", "<u8", ">i8"}) {
    uint64_t size = static_cast<uint64_t>(t[2] - '0');
    ExpectRoundTrip(fmt::format(R"({{"id": "delta", "dtype": "{}"}})", t), size, rng);
  }
}

// Float deltas are exact when the values are small integers.
TEST(CodecRoundTripTest, DeltaFloatsOfSmallIntegers) {
  auto codec = Make(R"({"id": "delta", "dtype": "<f8", "astype": "<f8"})", 8);
  ASSERT_NE(codec, nullptr);
  std::mt19937_64 rng(6);
  std::string raw(8 * 500, '\0');
  for (size_t i = 0; i < 500; ++i) {
    double v = static_cast<double>(static_cast<int>(rng() % 2001) - 1000);
    std::memcpy(raw.data() + 8 * i, &v, 8);
  }
  auto decoded = codec->Decode(*codec->Encode(raw), DecodedSize::Exactly(raw.size()));
  ASSERT_TRUE(decoded.ok());
  EXPECT_EQ(*decoded, raw);
}

// Items in the machine's byte order take delta's typed loops, the other order its general
// ones: on random bit patterns (NaNs, infinities and subnormals among them) both must give the
// same items, encoding and decoding. Which NaN a sum of two NaNs keeps depends on the order the
// compiler gives the operands (IEEE 754 leaves it open, as numpy does), so a NaN matches a NaN.
std::string SwapItems(std::string bytes, size_t size) {
  for (size_t i = 0; i + size <= bytes.size(); i += size) {
    std::reverse(bytes.begin() + static_cast<std::ptrdiff_t>(i),
                 bytes.begin() + static_cast<std::ptrdiff_t>(i + size));
  }
  return bytes;
}

bool IsNan(std::string_view item) {
  double d = 0;
  float f = 0;
  if (item.size() == 8) std::memcpy(&d, item.data(), 8);
  if (item.size() == 4) std::memcpy(&f, item.data(), 4);
  return item.size() == 8 ? std::isnan(d) : std::isnan(f);
}

// The first item where `a` and `b` differ (items of `size` bytes, floats when `floats`), or -1.
int64_t FirstDifferentItem(const std::string& a, const std::string& b, size_t size, bool floats) {
  if (a.size() != b.size()) return 0;
  for (size_t i = 0; i < a.size(); i += size) {
    const std::string_view x(a.data() + i, size), y(b.data() + i, size);
    if (x != y && !(floats && IsNan(x) && IsNan(y))) return static_cast<int64_t>(i / size);
  }
  return -1;
}

TEST(CodecRoundTripTest, DeltaGivesTheSameItemsInEitherByteOrder) {
  std::mt19937_64 rng(7);
  for (const char* t : {"f8", "f4", "i8", "u4", "i4"}) {
    const size_t size = static_cast<size_t>(t[1] - '0');
    const bool floats = t[0] == 'f';
    auto little = Make(fmt::format(R"({{"id": "delta", "dtype": "<{}"}})", t), size);
    auto big = Make(fmt::format(R"({{"id": "delta", "dtype": ">{}"}})", t), size);
    ASSERT_NE(little, nullptr);
    ASSERT_NE(big, nullptr);
    // A run of close values first, as a coordinate is, then random bits.
    std::string raw(size * 3000, '\0');
    for (char& c : raw) c = static_cast<char>(rng());
    for (size_t i = 0; i < 1000; ++i) {
      const double d = 1000.0 + static_cast<double>(i) * 0.25;
      const float f = static_cast<float>(d);
      const uint64_t n = 1000 + i * 3;
      const void* item = !floats     ? static_cast<const void*>(&n)
                         : size == 8 ? static_cast<const void*>(&d)
                                     : static_cast<const void*>(&f);
      std::memcpy(raw.data() + size * i, item, size);
    }
    auto encoded = little->Encode(raw);
    auto encoded_big = big->Encode(SwapItems(raw, size));
    ASSERT_TRUE(encoded.ok() && encoded_big.ok()) << t;
    EXPECT_EQ(FirstDifferentItem(*encoded, SwapItems(*encoded_big, size), size, floats), -1) << t;
    auto decoded = little->Decode(raw, DecodedSize::Exactly(raw.size()));
    auto decoded_big = big->Decode(SwapItems(raw, size), DecodedSize::Exactly(raw.size()));
    ASSERT_TRUE(decoded.ok() && decoded_big.ok()) << t;
    EXPECT_EQ(FirstDifferentItem(*decoded, SwapItems(*decoded_big, size), size, floats), -1) << t;
  }
}

// Values on the scale's grid survive fixedscaleoffset exactly.
TEST(CodecRoundTripTest, FixedScaleOffsetOnGrid) {
  for (const char* astype : {"<i2", "<i4", ">u2", "<f8"}) {
    auto codec = Make(fmt::format(R"({{"id": "fixedscaleoffset", "scale": 4, "offset": -10, )"
                                  R"("dtype": "<f8", "astype": "{}"}})",
                                  astype),
                      8);
    ASSERT_NE(codec, nullptr);
    std::string raw(8 * 300, '\0');
    for (size_t i = 0; i < 300; ++i) {
      double v = -10 + static_cast<double>(i) / 4;  // never below the offset: fits unsigned
      std::memcpy(raw.data() + 8 * i, &v, 8);
    }
    auto decoded = codec->Decode(*codec->Encode(raw), DecodedSize::Exactly(raw.size()));
    ASSERT_TRUE(decoded.ok()) << astype << ": " << decoded.status().ToString();
    EXPECT_EQ(*decoded, raw) << astype;
  }
}

}  // namespace
}  // namespace kerchunk::codecs
