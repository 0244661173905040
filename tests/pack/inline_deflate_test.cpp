// Inline values that are zlib streams are stored inflated and deflated again on reading
// (src/pack/inline_deflate.h): only streams zlib reproduces byte for byte, every level, and the
// packed file reads back the very bytes of the input.
#include "pack/inline_deflate.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <zlib.h>

#include <random>

#include "kerchunk/json/json_value.h"
#include "pack_testing.h"
#include "support/zlib_deflate.h"

namespace kerchunk::pack {
namespace {

using internal::DeflateAtLevel;
using internal::InflateReproducibly;
using ::testing::HasSubstr;

// Values like a chunk of a gridded field: slowly varying little-endian floats, with runs.
std::string FieldChunk(std::mt19937_64& random, size_t values) {
  std::string out;
  float v = static_cast<float>(random() % 1000);
  for (size_t i = 0; i < values; ++i) {
    if (random() % 4 != 0) v += static_cast<float>(random() % 7) - 3.0f;
    out.append(reinterpret_cast<const char*>(&v), sizeof v);
  }
  return out;
}

// A zlib stream written with other parameters than compress2's: zlib cannot reproduce it at
// any level, so it must be kept as it is.
std::string DeflateWith(std::string_view bytes, int level, int mem_level, int strategy) {
  return kerchunk::testing::ZlibDeflate(bytes, level, strategy, mem_level);
}

TEST(InlineDeflateTest, EveryLevelIsReproduced) {
  std::mt19937_64 random(7);
  for (int level = 1; level <= 9; ++level) {
    for (size_t n : {4, 40, 400, 4000}) {
      const std::string raw = FieldChunk(random, n);
      auto stream = DeflateAtLevel(raw, level);
      ASSERT_TRUE(stream.ok());
      // Whatever level is tried first, the answer gives back the stream. (On small inputs
      // neighbouring levels may write the same bytes: any of them is right.)
      for (int first : {1, 5, 9}) {
        auto v = InflateReproducibly(*stream, first, 1 << 20);
        ASSERT_TRUE(v.has_value()) << "level " << level << ", " << n << " values";
        EXPECT_EQ(v->bytes, raw);
        EXPECT_EQ(*DeflateAtLevel(v->bytes, v->level), *stream);
      }
    }
  }
}

TEST(InlineDeflateTest, WhatZlibCannotReproduceIsRefused) {
  std::mt19937_64 random(11);
  const std::string raw = FieldChunk(random, 2000);
  const std::string stream = *DeflateAtLevel(raw, 6);
  // Other memory level or strategy: a valid stream of the same bytes, not compress2's.
  EXPECT_FALSE(InflateReproducibly(DeflateWith(raw, 6, 9, Z_DEFAULT_STRATEGY), 6, 1 << 20));
  EXPECT_FALSE(InflateReproducibly(DeflateWith(raw, 6, 8, Z_FILTERED), 6, 1 << 20));
  // Bytes after the stream, a cut stream, a flipped bit, no zlib header, too large inflated.
  EXPECT_FALSE(InflateReproducibly(stream + "x", 6, 1 << 20));
  EXPECT_FALSE(InflateReproducibly(stream.substr(0, stream.size() - 5), 6, 1 << 20));
  std::string flipped = stream;
  flipped[stream.size() / 2] ^= 0x10;
  EXPECT_FALSE(InflateReproducibly(flipped, 6, 1 << 20));
  EXPECT_FALSE(InflateReproducibly(raw.substr(0, 100), 6, 1 << 20));
  EXPECT_FALSE(InflateReproducibly(stream, 6, raw.size() - 1));
  EXPECT_TRUE(InflateReproducibly(stream, 6, raw.size()));
  EXPECT_FALSE(InflateReproducibly("", 6, 1 << 20));
}

// An array of zlib-compressed chunks as Python kerchunk inlines them, some at another level,
// some that zlib does not reproduce, some not zlib at all, repeated fill chunks.
ReferenceSet DeflatedSet(uint32_t seed) {
  std::mt19937_64 random(seed);
  ReferenceSet refs;
  ArrayRefs& a = refs.arrays[testing::AddArray(refs, "tas", {400}, {1})];
  const std::string fill = *DeflateAtLevel(std::string(360, '\0'), 4);
  for (uint64_t c = 0; c < 400; ++c) {
    if (random() % 10 == 0) continue;
    const std::string raw = FieldChunk(random, 90);
    std::string value;
    switch (random() % 8) {
      case 0:
        value = fill;
        break;
      case 1:
        value = DeflateWith(raw, 4, 9, Z_DEFAULT_STRATEGY);
        break;
      case 2:
        value = raw.substr(0, random() % 50);
        break;
      case 3:
        value = *DeflateAtLevel(raw, 1 + static_cast<int>(random() % 9));
        break;
      default:
        value = *DeflateAtLevel(raw, 4);
    }
    a.AddInline(c, value, true);
  }
  EXPECT_TRUE(refs.Finalize().ok());
  return refs;
}

TEST(InlineDeflateTest, PackedValuesAreTheInputsBytes) {
  for (uint32_t seed = 1; seed <= 10; ++seed) {
    const ReferenceSet refs = DeflatedSet(seed);
    for (PackOptions options : {PackOptions{.checkpoint_interval = 8},
                                PackOptions{.readable = true}, PackOptions{.binary = true}}) {
      const std::string packed = testing::ExpectRoundTrip(refs, options);
      auto index = PackedIndex::Parse(packed);
      ASSERT_TRUE(index.ok()) << index.status().message();
      const ArrayRefs& a = refs.arrays[0];
      for (size_t i = 0; i < a.size(); ++i) {
        const std::string key = a.KeyPrefix() + a.grid().Key(a.chunk_index(i));
        auto v = index->Resolve(key);
        ASSERT_TRUE(v.ok() && v->has_value()) << key;
        EXPECT_EQ((*v)->data, a.Get(i).data) << key;
      }
    }
  }
}

TEST(InlineDeflateTest, InflatedValuesNeedVersion3AndTakeFewerBytes) {
  const ReferenceSet refs = DeflatedSet(3);
  auto doc = json::Value::Parse(testing::PackText(refs, {.readable = true}));
  ASSERT_TRUE(doc.ok());
  EXPECT_EQ(doc->Find("format_version")->as_int(), 3);
  const json::Value& values = doc->Find("inline")->as_array().at(0);
  ASSERT_NE(values.Find("deflate"), nullptr);
  std::vector<int64_t> levels;
  for (const json::Value& l : values.Find("deflate")->as_array()) levels.push_back(l.as_int());
  EXPECT_THAT(levels, ::testing::Contains(0));  // the values zlib does not reproduce
  EXPECT_THAT(levels, ::testing::Contains(4));
  // Smaller than the same values kept as zlib streams: the set without reproducible streams
  // is the reference.
  ReferenceSet kept;
  ArrayRefs& k = kept.arrays[testing::AddArray(kept, "tas", {400}, {1})];
  for (size_t i = 0; i < refs.arrays[0].size(); ++i) {
    // Same bytes, plus one byte after the stream so zlib's reproduction fails.
    k.AddInline(refs.arrays[0].chunk_index(i), std::string(refs.arrays[0].Get(i).data) + "x", true);
  }
  ASSERT_TRUE(kept.Finalize().ok());
  EXPECT_LT(testing::ExpectRoundTrip(refs, {.binary = true}).size() * 10,
            testing::ExpectRoundTrip(kept, {.binary = true}).size() * 9);
}

TEST(InlineDeflateTest, DamagedLevelsAreRefused) {
  auto doc = json::Value::Parse(testing::PackText(DeflatedSet(5), {.readable = true}));
  ASSERT_TRUE(doc.ok());
  json::Value& values = doc->Find("inline")->as_array().at(0);
  json::Value bad = *doc;
  bad.Find("inline")->as_array().at(0).Find("deflate")->as_array()[0] = json::Value::Int(10);
  auto index = PackedIndex::Parse(bad.Dump());
  ASSERT_FALSE(index.ok());
  EXPECT_THAT(index.status().message(), HasSubstr("\"deflate\": 10 is not a zlib level"));
  values.Find("deflate")->as_array().pop_back();
  index = PackedIndex::Parse(doc->Dump());
  ASSERT_FALSE(index.ok());
  EXPECT_THAT(index.status().message(), HasSubstr("inline values 0 (tas): \"deflate\":"));
}

}  // namespace
}  // namespace kerchunk::pack
