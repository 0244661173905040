// Corrupt, truncated and oversized streams fail with DataLoss naming the codec; none crashes
// or writes beyond the size it was allowed.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <random>

#include "kerchunk/codecs/codec.h"

namespace kerchunk::codecs {
namespace {

using ::testing::HasSubstr;

std::shared_ptr<const Codec> Make(std::string_view config_json, uint64_t itemsize = 4) {
  return *MakeCodec(*json::Value::Parse(config_json), CodecContext{itemsize});
}

const char* const kCompressors[] = {
    R"({"id": "zlib", "level": 5})",
    R"({"id": "gzip", "level": 5})",
    R"({"id": "zstd", "level": 3})",
    R"({"id": "blosc", "cname": "lz4", "clevel": 5, "shuffle": 1})",
    R"({"id": "blosc", "cname": "zstd", "clevel": 5, "shuffle": 2})",
};

std::string Sample(size_t n) {
  std::string s(n, '\0');
  for (size_t i = 0; i < n; ++i) s[i] = static_cast<char>((i * 7) % 13 + (i / 100));
  return s;
}

TEST(CodecCorruptionTest, EveryTruncationIsDataLoss) {
  std::string raw = Sample(4000);
  for (const char* config : kCompressors) {
    auto codec = Make(config);
    std::string encoded = *codec->Encode(raw);
    for (size_t n = 0; n < encoded.size(); ++n) {
      auto r = codec->Decode(encoded.substr(0, n), DecodedSize::Exactly(raw.size()));
      ASSERT_FALSE(r.ok()) << config << " truncated to " << n << " of " << encoded.size();
      EXPECT_EQ(r.status().code(), StatusCode::kDataLoss) << config << " " << n;
      EXPECT_THAT(r.status().message(), HasSubstr(codec->id())) << r.status().message();
    }
  }
}

TEST(CodecCorruptionTest, FlippedBytesNeverCrash) {
  std::string raw = Sample(4000);
  std::mt19937_64 rng(11);
  for (const char* config : kCompressors) {
    auto codec = Make(config);
    std::string encoded = *codec->Encode(raw);
    for (int trial = 0; trial < 300; ++trial) {
      std::string bad = encoded;
      for (int k = 0; k < 1 + trial % 4; ++k)
        bad[rng() % bad.size()] ^= static_cast<char>(1 + rng() % 255);
      auto r = codec->Decode(bad, DecodedSize::Exactly(raw.size()));
      // Streams without a checksum may decode to other bytes of the right size; anything else
      // must be a DataLoss error.
      if (r.ok()) {
        EXPECT_EQ(r->size(), raw.size()) << config;
      } else {
        EXPECT_EQ(r.status().code(), StatusCode::kDataLoss)
            << config << ": " << r.status().message();
      }
    }
  }
}

TEST(CodecCorruptionTest, WrongExpectedSizeIsDataLoss) {
  std::string raw = Sample(1000);
  for (const char* config : kCompressors) {
    auto codec = Make(config);
    std::string encoded = *codec->Encode(raw);
    auto smaller = codec->Decode(encoded, DecodedSize::Exactly(999));
    ASSERT_FALSE(smaller.ok()) << config;
    EXPECT_EQ(smaller.status().code(), StatusCode::kDataLoss);
    auto larger = codec->Decode(encoded, DecodedSize::Exactly(1001));
    ASSERT_FALSE(larger.ok()) << config;
    EXPECT_EQ(larger.status().code(), StatusCode::kDataLoss);
    EXPECT_THAT(larger.status().message(), HasSubstr("1000"));
    EXPECT_THAT(larger.status().message(), HasSubstr("1001"));
  }
}

// 16 MiB of zeros compress to a few KiB; decoding with a 1 MiB bound stops at the bound.
TEST(CodecCorruptionTest, BombStopsAtTheBound) {
  std::string zeros(16 << 20, '\0');
  for (const char* config : {kCompressors[0], kCompressors[1], kCompressors[2]}) {
    auto codec = Make(config);
    std::string encoded = *codec->Encode(zeros);
    ASSERT_LT(encoded.size(), 1u << 20) << config;
    auto r = codec->Decode(encoded, DecodedSize::AtMost(1 << 20));
    ASSERT_FALSE(r.ok()) << config;
    EXPECT_EQ(r.status().code(), StatusCode::kDataLoss);
    EXPECT_THAT(r.status().message(), HasSubstr("more than 1048576 bytes")) << config;
  }
}

TEST(CodecCorruptionTest, GarbageIsDataLoss) {
  std::mt19937_64 rng(12);
  for (const char* config : kCompressors) {
    auto codec = Make(config);
    for (int trial = 0; trial < 200; ++trial) {
      std::string junk(rng() % 100, '\0');
      for (auto& c : junk) c = static_cast<char>(rng());
      auto r = codec->Decode(junk, DecodedSize::Exactly(64));
      if (!r.ok()) {
        EXPECT_EQ(r.status().code(), StatusCode::kDataLoss) << config;
      }
    }
  }
}

TEST(CodecCorruptionTest, ElementFiltersRejectPartialElements) {
  auto shuffle = Make(R"({"id": "shuffle", "elementsize": 4})");
  auto r = shuffle->Decode("abcdefg", DecodedSize::Exactly(7));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kDataLoss);
  EXPECT_THAT(r.status().message(), HasSubstr("not a whole number of 4-byte elements"));
  auto delta = Make(R"({"id": "delta", "dtype": "<i4"})");
  EXPECT_EQ(delta->Decode("abcdef", DecodedSize::Exactly(6)).status().code(),
            StatusCode::kDataLoss);
  auto fso = Make(R"({"id": "fixedscaleoffset", "scale": 1, "offset": 0, "dtype": "<i1",)"
                  R"( "astype": "<i2"})");
  // Decoded values must fit the dtype: 1000 does not fit int8.
  std::string big("\xe8\x03", 2);
  auto overflow = fso->Decode(big, DecodedSize::Exactly(1));
  ASSERT_FALSE(overflow.ok());
  EXPECT_EQ(overflow.status().code(), StatusCode::kDataLoss);
}

TEST(CodecConfigTest, UnknownAndMalformedConfigs) {
  auto unknown = MakeCodec(*json::Value::Parse(R"({"id": "lzma"})"));
  ASSERT_FALSE(unknown.ok());
  EXPECT_EQ(unknown.status().code(), StatusCode::kUnsupported);
  EXPECT_THAT(unknown.status().message(), HasSubstr("\"lzma\""));
  auto no_id = MakeCodec(*json::Value::Parse(R"({"level": 1})"));
  EXPECT_EQ(no_id.status().code(), StatusCode::kInvalidArgument);
  auto bad_level = MakeCodec(*json::Value::Parse(R"({"id": "zlib", "level": "high"})"));
  ASSERT_FALSE(bad_level.ok());
  EXPECT_EQ(bad_level.status().code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(bad_level.status().message(), HasSubstr("\"level\""));
  auto bad_shuffle = MakeCodec(*json::Value::Parse(R"({"id": "blosc", "shuffle": 7})"));
  EXPECT_EQ(bad_shuffle.status().code(), StatusCode::kInvalidArgument);
  auto mixed_delta =
      MakeCodec(*json::Value::Parse(R"({"id": "delta", "dtype": "<i4", "astype": "<i2"})"));
  EXPECT_EQ(mixed_delta.status().code(), StatusCode::kUnsupported);
  auto float_delta = MakeCodec(*json::Value::Parse(R"({"id": "delta", "dtype": "<c16"})"));
  EXPECT_EQ(float_delta.status().code(), StatusCode::kUnsupported);
}

}  // namespace
}  // namespace kerchunk::codecs
