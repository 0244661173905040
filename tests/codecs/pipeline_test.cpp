#include "kerchunk/codecs/pipeline.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstring>
#include <random>

#include "kerchunk/util/base64.h"

namespace kerchunk::codecs {
namespace {

using ::testing::HasSubstr;

ZarrArrayMeta Meta(std::string_view zarray) {
  auto m = ZarrArrayMeta::Parse(zarray);
  EXPECT_TRUE(m.ok()) << m.status().ToString();
  return *m;
}

std::string Doubles(int n) {
  std::string s(8 * n, '\0');
  for (int i = 0; i < n; ++i) {
    double v = 0.25 * i - 3;
    std::memcpy(s.data() + 8 * i, &v, 8);
  }
  return s;
}

TEST(PipelineTest, DecodedChunkSize) {
  auto m = Meta(R"({"zarr_format": 2, "shape": [10, 7], "chunks": [4, 3], "dtype": "<f4",)"
                R"( "compressor": null, "filters": null, "fill_value": null, "order": "C"})");
  EXPECT_EQ(*DecodedChunkSize(m), 4u * 3u * 4u);
  auto s = Meta(R"({"zarr_format": 2, "shape": [], "chunks": [], "dtype": "|S12",)"
                R"( "compressor": null, "filters": null, "fill_value": null, "order": "C"})");
  EXPECT_EQ(*DecodedChunkSize(s), 12u);
  auto o = Meta(R"({"zarr_format": 2, "shape": [3], "chunks": [3], "dtype": "|O",)"
                R"( "compressor": null, "filters": [{"id": "json2"}], "fill_value": null,)"
                R"( "order": "C"})");
  EXPECT_EQ(DecodedChunkSize(o).status().code(), StatusCode::kUnsupported);
}

// The layout kerchunk writes for NetCDF-4 variables: filters [shuffle, zlib], no compressor.
TEST(PipelineTest, ShuffleThenZlibAsFiltersRoundTrip) {
  auto m =
      Meta(R"({"zarr_format": 2, "shape": [100], "chunks": [100], "dtype": "<f8",)"
           R"( "compressor": null, "fill_value": null, "order": "C",)"
           R"( "filters": [{"elementsize": 8, "id": "shuffle"}, {"id": "zlib", "level": 2}]})");
  auto p = Pipeline::FromZarray(m);
  ASSERT_TRUE(p.ok()) << p.status().ToString();
  ASSERT_EQ(p->codecs().size(), 2u);
  EXPECT_EQ(p->codecs()[0]->id(), "shuffle");
  std::string raw = Doubles(100);
  auto stored = p->Encode(raw);
  ASSERT_TRUE(stored.ok());
  auto decoded = p->Decode(*stored, 800);
  ASSERT_TRUE(decoded.ok()) << decoded.status().ToString();
  EXPECT_EQ(*decoded, raw);
  auto wrong = p->Decode(*stored, 808);
  ASSERT_FALSE(wrong.ok());
  EXPECT_EQ(wrong.status().code(), StatusCode::kDataLoss);
  EXPECT_THAT(wrong.status().message(), HasSubstr("zlib: decoded to 800 bytes, expected 808"));
}

// Known vector: numcodecs filters=[Shuffle(8)] + compressor Zstd(1), as zarr writes a chunk.
//   z = zarr.array(np.arange(12, dtype='<f8') / 4, chunks=12, compressor=numcodecs.Zstd(1),
//                  filters=[numcodecs.Shuffle(8)])
//   base64.b64encode(z.store['0'])
constexpr char kZarrChunk[] = "KLUv/SBg/QAAyAAA0ODo8PT4/AACBAYAPz8/Pz8/P0BAQEABAIQCLA==";

TEST(PipelineTest, ZarrWrittenChunk) {
  auto m = Meta(R"({"zarr_format": 2, "shape": [12], "chunks": [12], "dtype": "<f8",)"
                R"( "compressor": {"id": "zstd", "level": 1}, "fill_value": 0.0, "order": "C",)"
                R"( "filters": [{"elementsize": 8, "id": "shuffle"}]})");
  auto p = Pipeline::FromZarray(m);
  ASSERT_TRUE(p.ok());
  std::string stored = *Base64Decode(kZarrChunk);
  std::string expected(96, '\0');
  for (int i = 0; i < 12; ++i) {
    double v = i / 4.0;
    std::memcpy(expected.data() + 8 * i, &v, 8);
  }
  auto decoded = p->Decode(stored, 96);
  ASSERT_TRUE(decoded.ok()) << decoded.status().ToString();
  EXPECT_EQ(*decoded, expected);
}

TEST(PipelineTest, EmptyPipelineChecksSize) {
  Pipeline p;
  EXPECT_TRUE(p.empty());
  EXPECT_EQ(*p.Decode("abcd", 4), "abcd");
  auto r = p.Decode("abc", 4);
  EXPECT_EQ(r.status().code(), StatusCode::kDataLoss);
  EXPECT_THAT(r.status().message(), HasSubstr("3 bytes, expected 4"));
}

TEST(PipelineTest, UnknownCodecNamesIdAndPosition) {
  auto r = Pipeline::FromConfigs(
      json::Value(), *json::Value::Parse(R"([{"id": "shuffle"}, {"id": "bitround"}])"), "<f4");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kUnsupported);
  EXPECT_THAT(r.status().message(), HasSubstr("filter 1"));
  EXPECT_THAT(r.status().message(), HasSubstr("\"bitround\""));
  auto c = Pipeline::FromConfigs(*json::Value::Parse(R"({"id": "lz4"})"), json::Value(), "<f4");
  EXPECT_THAT(c.status().message(), HasSubstr("compressor"));
}

TEST(PipelineTest, RefusesHugeChunks) {
  Pipeline p;
  auto r = p.Decode("", kMaxDecodedChunkBytes + 1);
  EXPECT_EQ(r.status().code(), StatusCode::kUnsupported);
}

TEST(PipelineTest, CompressorBeforeCompressorIsUnsupported) {
  auto p = Pipeline::FromConfigs(*json::Value::Parse(R"({"id": "zstd"})"),
                                 *json::Value::Parse(R"([{"id": "zlib"}])"), "<f4");
  ASSERT_TRUE(p.ok());
  std::string raw(400, 'x');
  auto stored = p->Encode(raw);
  ASSERT_TRUE(stored.ok());
  EXPECT_EQ(p->Decode(*stored, 400).status().code(), StatusCode::kUnsupported);
}

TEST(PipelineTest, RandomFilterChainsRoundTrip) {
  std::mt19937_64 rng(21);
  const char* filters[] = {R"({"id": "shuffle", "elementsize": 8})",
                           R"({"id": "delta", "dtype": "<i8"})", R"({"id": "zlib", "level": 1})"};
  const char* compressors[] = {"null", R"({"id": "zstd", "level": 2})",
                               R"({"id": "blosc", "cname": "lz4", "clevel": 3, "shuffle": 2})",
                               R"({"id": "gzip", "level": 6})"};
  for (int trial = 0; trial < 60; ++trial) {
    // Filters in random order, at most one compressor-like filter (zlib) and it last.
    std::string list = "[";
    int n = static_cast<int>(rng() % 3);
    for (int k = 0; k < n; ++k) list += std::string(k ? "," : "") + filters[rng() % 2];
    if (rng() % 2) list += std::string(n ? "," : "") + filters[2];
    list += "]";
    std::string compressor = compressors[rng() % 4];
    if (list.find("zlib") != std::string::npos) compressor = "null";
    auto p =
        Pipeline::FromConfigs(*json::Value::Parse(compressor), *json::Value::Parse(list), "<i8");
    ASSERT_TRUE(p.ok()) << list << " " << compressor << ": " << p.status().ToString();
    std::string raw(8 * (rng() % 500), '\0');
    for (auto& c : raw) c = static_cast<char>(rng() % 4);
    auto stored = p->Encode(raw);
    ASSERT_TRUE(stored.ok());
    auto decoded = p->Decode(*stored, raw.size());
    ASSERT_TRUE(decoded.ok()) << list << " " << compressor << ": " << decoded.status().ToString();
    EXPECT_EQ(*decoded, raw) << list << " " << compressor;
  }
}

// DecodePrefix is Decode cut short, for every element size the shuffle special-cases and others,
// every prefix length (none, part of an element, all), alone and under a compressor.
// Under a compressor the shuffle's byte planes are gathered from the compressor's output as it
// streams (Codec::DecodeSpans): chunks above the 64 KiB streaming buffer split the planes.
TEST(PipelineTest, DecodePrefixIsThePrefixOfDecode) {
  std::mt19937_64 rng(7);
  for (int elementsize : {1, 2, 3, 4, 8, 16}) {
    for (const char* compressor :
         {"null", R"({"id": "zlib", "level": 1})", R"({"id": "gzip", "level": 1})",
          R"({"id": "zstd", "level": 1})"}) {
      for (uint64_t elements : {1 + rng() % 300, 20000 + rng() % 30000}) {
        // Without shuffle (elementsize 3 here) the compressor itself gives the prefix.
        std::string filters = elementsize == 3 ? "null"
                                               : R"([{"id": "shuffle", "elementsize": )" +
                                                     std::to_string(elementsize) + "}]";
        auto p =
            Pipeline::FromConfigs(*json::Value::Parse(compressor), *json::Value::Parse(filters),
                                  "|V" + std::to_string(elementsize));
        ASSERT_TRUE(p.ok()) << p.status().ToString();
        std::string raw(static_cast<size_t>(elementsize) * elements, '\0');
        // Runs of repeated bytes so that compressed streams are short and fill the buffer fast.
        for (size_t i = 0; i < raw.size(); ++i)
          raw[i] = static_cast<char>(i % 7 == 0 ? rng() : i / 64);
        auto stored = p->Encode(raw);
        ASSERT_TRUE(stored.ok());
        for (uint64_t keep :
             {uint64_t{0}, uint64_t{1}, uint64_t(elementsize) + 1, uint64_t(raw.size() / 2),
              uint64_t(raw.size() - 1), uint64_t(raw.size()), UINT64_MAX}) {
          auto prefix = p->DecodePrefix(*stored, raw.size(), keep);
          ASSERT_TRUE(prefix.ok()) << prefix.status().ToString();
          EXPECT_EQ(*prefix, raw.substr(0, keep))
              << elementsize << " " << compressor << " " << keep;
        }
        // The checks are Decode's: a wrong expected size is refused, whatever is kept.
        EXPECT_EQ(p->DecodePrefix(*stored, raw.size() + elementsize, 1).status().code(),
                  StatusCode::kDataLoss);
        EXPECT_EQ(p->DecodePrefix(*stored, raw.size() - elementsize, 1).status().code(),
                  StatusCode::kDataLoss);
      }
    }
  }
}

// Only a prefix is kept, but the whole stream is still decoded and checked: a damaged checksum,
// a truncation or a flipped byte anywhere is DataLoss as for Decode.
TEST(PipelineTest, DecodePrefixChecksTheWholeStream) {
  auto p =
      Pipeline::FromConfigs(*json::Value::Parse(R"({"id": "zlib", "level": 6})"),
                            *json::Value::Parse(R"([{"id": "shuffle", "elementsize": 8}])"), "<f8");
  ASSERT_TRUE(p.ok());
  const std::string raw = Doubles(300000);
  std::string stored = *p->Encode(raw);
  ASSERT_EQ(*p->DecodePrefix(stored, raw.size(), 80), raw.substr(0, 80));
  std::string bad_sum = stored;
  bad_sum.back() = static_cast<char>(bad_sum.back() ^ 1);
  auto r = p->DecodePrefix(bad_sum, raw.size(), 80);
  EXPECT_EQ(r.status().code(), StatusCode::kDataLoss);
  EXPECT_THAT(r.status().message(), HasSubstr("incorrect data check"));
  for (size_t cut : {stored.size() - 1, stored.size() - 4, stored.size() / 2, size_t{3}}) {
    EXPECT_EQ(p->DecodePrefix(stored.substr(0, cut), raw.size(), 80).status().code(),
              StatusCode::kDataLoss)
        << cut;
  }
  std::mt19937_64 rng(3);
  for (int trial = 0; trial < 50; ++trial) {
    std::string bad = stored;
    bad[2 + rng() % (bad.size() - 2)] ^= static_cast<char>(1 + rng() % 255);
    auto full = p->Decode(bad, raw.size());
    auto prefix = p->DecodePrefix(bad, raw.size(), 80);
    EXPECT_EQ(full.ok(), prefix.ok()) << trial;
    if (!full.ok()) {
      EXPECT_EQ(prefix.status().code(), StatusCode::kDataLoss) << trial;
    }
  }
}

// DecodeSpans, streamed (zlib) or decoded whole (the default), is the concatenation of the spans
// of Decode, whatever the spans: empty, across buffer boundaries, at the ends.
TEST(PipelineTest, DecodeSpansGathersTheSpansOfDecode) {
  std::mt19937_64 rng(13);
  std::string raw(300000, '\0');
  for (size_t i = 0; i < raw.size(); ++i) raw[i] = static_cast<char>(i % 5 == 0 ? rng() : i / 100);
  for (const char* config : {R"({"id": "zlib", "level": 1})", R"({"id": "zstd", "level": 1})"}) {
    auto codec = *MakeCodec(*json::Value::Parse(config));
    std::string stored = *codec->Encode(raw);
    for (int trial = 0; trial < 40; ++trial) {
      std::vector<ByteSpan> spans;
      std::string expected;
      uint64_t at = rng() % 3 == 0 ? 0 : rng() % 70000;
      while (at < raw.size()) {
        uint64_t length = std::min<uint64_t>(raw.size() - at, rng() % 3 == 0 ? 0 : rng() % 90000);
        spans.push_back({at, length});
        expected += raw.substr(at, length);
        at += length + rng() % 100000;
      }
      auto got = codec->DecodeSpans(stored, raw.size(), spans);
      ASSERT_TRUE(got.ok()) << got.status().ToString();
      EXPECT_EQ(*got, expected) << config << " trial " << trial;
    }
    EXPECT_EQ(codec->DecodeSpans(stored, raw.size() + 1, {}).status().code(),
              StatusCode::kDataLoss);
    EXPECT_EQ(codec->DecodeSpans(stored, raw.size() - 1, {}).status().code(),
              StatusCode::kDataLoss);
  }
}

// Called on the codec itself, "keep everything" (UINT64_MAX) is the whole chunk, not an
// overflowed count of elements.
TEST(PipelineTest, ShuffleDecodePrefixKeepsAllWhenAskedForMore) {
  auto shuffle = MakeCodec(*json::Value::Parse(R"({"id": "shuffle", "elementsize": 8})"));
  ASSERT_TRUE(shuffle.ok());
  const std::string raw = Doubles(100);
  auto encoded = (*shuffle)->Encode(raw);
  ASSERT_TRUE(encoded.ok());
  auto all = (*shuffle)->DecodePrefix(*encoded, raw.size(), UINT64_MAX);
  ASSERT_TRUE(all.ok()) << all.status().ToString();
  EXPECT_EQ(*all, raw);
}

}  // namespace
}  // namespace kerchunk::codecs
