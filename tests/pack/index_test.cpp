// PackedIndex lookups: single keys, selections against a brute-force answer, extraction.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <random>

#include "kerchunk/bench/synthetic_refs.h"
#include "kerchunk/pack/selection.h"
#include "pack_testing.h"
#include "support/refs_testing.h"

namespace kerchunk::pack {
namespace {

using testing::AddArray;
using ::testing::HasSubstr;

TEST(PackedIndexTest, ResolvesMetadataInlineRangesAndNothing) {
  ReferenceSet refs;
  refs.SetText(".zgroup", R"({"zarr_format":2})");
  AddArray(refs, "x", {100}, {1});
  uint32_t f = refs.urls.Intern("f.nc");
  for (uint64_t c = 0; c < 100; ++c) {
    if (c == 4) continue;
    if (c == 7) {
      refs.arrays[0].AddInline(c, "abc", /*base64=*/true);
    } else {
      refs.arrays[0].AddRange(c, f, 10 * c, 10);
    }
  }
  auto index = PackedIndex::Parse(testing::PackText(refs));
  ASSERT_TRUE(index.ok()) << index.status().message();
  EXPECT_EQ(index->generator_count(), 1u);
  EXPECT_EQ(index->generated_references(), 98u);
  EXPECT_EQ(index->key_count(), 2u + 99u);
  auto zgroup = index->Resolve(".zgroup");
  ASSERT_TRUE(zgroup.ok() && *zgroup);
  EXPECT_EQ((*zgroup)->kind, EntryValue::Kind::kText);
  EXPECT_EQ((*zgroup)->data, R"({"zarr_format":2})");
  auto chunk = index->Resolve("x/5");
  ASSERT_TRUE(chunk.ok() && *chunk);
  EXPECT_EQ((*chunk)->url, "f.nc");
  EXPECT_EQ((*chunk)->offset, 50u);
  EXPECT_EQ((*chunk)->length, 10u);
  auto inline_chunk = index->Resolve("x/7");
  ASSERT_TRUE(inline_chunk.ok() && *inline_chunk);
  EXPECT_EQ((*inline_chunk)->kind, EntryValue::Kind::kBase64);
  EXPECT_EQ((*inline_chunk)->data, "abc");
  for (const char* absent : {"x/4", "x/100", "x/05", "y/1", "", "x/"}) {
    auto v = index->Resolve(absent);
    ASSERT_TRUE(v.ok()) << absent;
    EXPECT_FALSE(v->has_value()) << absent;
  }
}

// Brute force: the chunks of `array` whose coordinates fall in the ranges.
std::vector<uint64_t> ChunksInBox(const ArrayRefs& a,
                                  const std::vector<std::pair<uint64_t, uint64_t>>& ranges) {
  std::vector<uint64_t> out;
  std::vector<uint64_t> coords(a.grid().rank());
  for (size_t i = 0; i < a.size(); ++i) {
    a.grid().Coords(a.chunk_index(i), coords);
    bool in = true;
    for (size_t d = 0; d < coords.size(); ++d) {
      in = in && coords[d] >= ranges[d].first && coords[d] < ranges[d].second;
    }
    if (in) out.push_back(a.chunk_index(i));
  }
  return out;
}

TEST(PackedIndexTest, SelectionsMatchBruteForce) {
  for (uint64_t seed = 0; seed < 30; ++seed) {
    std::mt19937_64 rng(seed + 100);
    kerchunk::testing::RandomRefsOptions o;
    o.shared_grid_p = 0.5;
    o.relayout_p = 0.7;
    o.max_chunks_per_dim = 9;
    ReferenceSet refs = kerchunk::testing::RandomReferenceSet(rng, o);
    auto index = PackedIndex::Parse(testing::PackText(refs, {.checkpoint_interval = 5}));
    ASSERT_TRUE(index.ok()) << index.status().message();
    for (const ArrayRefs& a : refs.arrays) {
      for (int trial = 0; trial < 5; ++trial) {
        std::string text = a.path() + "[";
        for (size_t d = 0; d < a.grid().rank(); ++d) {
          int64_t size = static_cast<int64_t>(a.grid().shape()[d]);
          int64_t lo = static_cast<int64_t>(rng() % (size + 1)) - (trial % 2 ? size : 0);
          int64_t hi = lo + static_cast<int64_t>(rng() % (size + 2));
          text += (d ? ", " : "") + (trial == 4 ? std::string(":") : fmt::format("{}:{}", lo, hi));
        }
        text += "]";
        SCOPED_TRACE(text);
        auto selection = ParseSelection(text);
        ASSERT_TRUE(selection.ok()) << selection.status().message();
        auto ranges = SelectedChunkRanges(*selection, a.grid());
        ASSERT_TRUE(ranges.ok()) << ranges.status().message();
        auto selected = index->Select(text);
        ASSERT_TRUE(selected.ok()) << selected.status().message();
        std::vector<uint64_t> expected = ChunksInBox(a, *ranges);
        const ArrayRefs* got = selected->FindArray(a.path());
        std::vector<uint64_t> got_chunks;
        if (got) got_chunks.assign(got->chunks().begin(), got->chunks().end());
        EXPECT_EQ(got_chunks, expected);
        for (size_t i = 0; got && i < got->size(); ++i) {
          ChunkRef want = a.Get(*a.Find(got->chunk_index(i)));
          ChunkRef have = got->Get(i);
          EXPECT_EQ(have.kind, want.kind);
          EXPECT_EQ(have.offset, want.offset);
          EXPECT_EQ(have.length, want.length);
          EXPECT_EQ(have.data, want.data);
          if (want.kind != RefKind::kInline) {
            EXPECT_EQ(selected->urls[have.url], refs.urls[want.url]);
          }
        }
      }
    }
  }
}

TEST(PackedIndexTest, SelectOnTheSyntheticSet) {
  ReferenceSet refs = SyntheticReferenceSet();
  auto index = PackedIndex::Parse(testing::PackText(refs));
  ASSERT_TRUE(index.ok());
  auto part = index->Select("sst[0:10, :, 400:800]");  // 10 time chunks x 4 x 2
  ASSERT_TRUE(part.ok()) << part.status().message();
  const ArrayRefs* sst = part->FindArray("sst");
  ASSERT_NE(sst, nullptr);
  const ArrayRefs& truth = *refs.FindArray("sst");
  size_t expected = 0;
  for (uint64_t t = 0; t < 10; ++t) {
    for (uint64_t y = 0; y < 4; ++y) {
      for (uint64_t x = 1; x < 3; ++x) expected += truth.Find(t * 16 + y * 4 + x).has_value();
    }
  }
  EXPECT_EQ(sst->size(), expected);
  for (size_t i = 0; i < sst->size(); ++i) {
    ChunkRef want = truth.Get(*truth.Find(sst->chunk_index(i)));
    EXPECT_EQ(sst->Get(i).offset, want.offset);
    EXPECT_EQ(sst->Get(i).length, want.length);
  }
  auto last = index->Select("t2m[-1]");
  ASSERT_TRUE(last.ok());
  EXPECT_EQ(last->FindArray("t2m")->size(), 16u);
  EXPECT_EQ(last->FindArray("t2m")->chunk_index(0), 743u * 16);
}

TEST(PackedIndexTest, ExtractCombinesKeysAndSelectionsOnce) {
  ReferenceSet refs = SyntheticReferenceSet({.files = 2});
  auto index = PackedIndex::Parse(testing::PackText(refs));
  ASSERT_TRUE(index.ok());
  std::vector<std::string> keys = {"t2m/0.0.0", "t2m/0.0.0", "t2m/.zattrs", "t2m/999.0.0",
                                   "nothing"};
  std::vector<std::string> selections = {"t2m[0]"};
  uint64_t missing = 0;
  auto out = index->Extract(keys, selections, {}, &missing);
  ASSERT_TRUE(out.ok()) << out.status().message();
  EXPECT_EQ(missing, 2u);
  EXPECT_EQ(out->FindArray("t2m")->size(), 16u);
  EXPECT_EQ(out->entries.size(), 1u);
  auto with_metadata = index->Extract(keys, {}, {.metadata = true});
  ASSERT_TRUE(with_metadata.ok());
  EXPECT_NE(with_metadata->FindEntry(".zgroup"), nullptr);
  EXPECT_NE(with_metadata->FindEntry("sst/.zarray"), nullptr);
}

TEST(PackedIndexTest, SelectionErrors) {
  ReferenceSet refs = SyntheticReferenceSet({.files = 1});
  auto index = PackedIndex::Parse(testing::PackText(refs));
  ASSERT_TRUE(index.ok());
  auto unknown = index->Select("nope[0]");
  EXPECT_EQ(unknown.status().code(), StatusCode::kNotFound);
  EXPECT_THAT(unknown.status().message(), HasSubstr("no array \"nope\""));
  auto rank = index->Select("t2m[0, 0, 0, 0]");
  EXPECT_EQ(rank.status().code(), StatusCode::kInvalidArgument);
  auto bounds = index->Select("t2m[24]");
  EXPECT_THAT(bounds.status().message(), HasSubstr("index 24 is out of bounds for dimension 0"));
}

}  // namespace
}  // namespace kerchunk::pack
