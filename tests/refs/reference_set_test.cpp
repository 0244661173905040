#include "kerchunk/refs/reference_set.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <random>

namespace kerchunk {
namespace {

TEST(UrlTableTest, InternsOnce) {
  UrlTable t;
  EXPECT_EQ(t.Intern("a.nc"), 0u);
  EXPECT_EQ(t.Intern("b.nc"), 1u);
  EXPECT_EQ(t.Intern("a.nc"), 0u);
  EXPECT_EQ(t.size(), 2u);
  EXPECT_EQ(t.Find("b.nc"), 1u);
  ASSERT_TRUE(t.Rename(0, "s3://x/a.nc").ok());
  EXPECT_EQ(t[0], "s3://x/a.nc");
  EXPECT_EQ(t.Find("a.nc"), std::nullopt);
  EXPECT_FALSE(t.Rename(1, "s3://x/a.nc").ok());
}

TEST(ArrayRefsTest, KindsRoundTrip) {
  ArrayRefs a("v", *ChunkGrid::Make({10}, {1}));
  a.AddRange(3, 0, 100, 20);
  a.AddWholeFile(1, 1);
  a.AddInline(7, std::string("\0\1x", 3), true);
  a.AddInline(0, "text", false);
  ASSERT_TRUE(a.Finalize().ok());
  ASSERT_EQ(a.size(), 4u);
  EXPECT_EQ(a.chunk_index(0), 0u);
  EXPECT_EQ(a.Get(0).kind, RefKind::kInline);
  EXPECT_EQ(a.Get(0).data, "text");
  EXPECT_FALSE(a.Get(0).base64);
  EXPECT_EQ(a.Get(1).kind, RefKind::kWholeFile);
  EXPECT_EQ(a.Get(1).url, 1u);
  EXPECT_EQ(a.Get(2).kind, RefKind::kRange);
  EXPECT_EQ(a.Get(2).offset, 100u);
  EXPECT_EQ(a.Get(3).data, std::string("\0\1x", 3));
  EXPECT_TRUE(a.Get(3).base64);
  EXPECT_EQ(a.Find(7), 3u);
  EXPECT_EQ(a.Find(5), std::nullopt);
}

TEST(ArrayRefsTest, FinalizeRejectsDuplicates) {
  ArrayRefs a("grp/v", *ChunkGrid::Make({10, 10}, {5, 5}));
  a.AddRange(1, 0, 0, 1);
  a.AddRange(1, 0, 5, 1);
  Status s = a.Finalize();
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_NE(s.message().find("grp/v/0.1"), std::string::npos) << s.message();
}

// Property: after Finalize, chunks are sorted and every chunk maps to the reference it was added
// with, whatever the insertion order.
TEST(ArrayRefsTest, RandomOrderFinalizes) {
  std::mt19937_64 rng(1);
  for (int iter = 0; iter < 50; ++iter) {
    ArrayRefs a("x", *ChunkGrid::Make({1000}, {1}));
    std::map<uint64_t, std::pair<uint64_t, uint64_t>> want;
    std::vector<uint64_t> ids(1000);
    for (uint64_t i = 0; i < ids.size(); ++i) ids[i] = i;
    std::shuffle(ids.begin(), ids.end(), rng);
    ids.resize(rng() % 1000);
    for (uint64_t id : ids) {
      uint64_t off = rng() % 100000, len = rng() % 5000;
      want[id] = {off, len};
      a.AddRange(id, 0, off, len);
    }
    ASSERT_TRUE(a.Finalize().ok());
    ASSERT_EQ(a.size(), want.size());
    size_t i = 0;
    for (auto& [id, ol] : want) {
      EXPECT_EQ(a.chunk_index(i), id);
      EXPECT_EQ(a.Get(i).offset, ol.first);
      EXPECT_EQ(a.Get(i).length, ol.second);
      ++i;
    }
  }
}

TEST(ReferenceSetTest, EntriesAndArrays) {
  ReferenceSet r;
  r.SetText(".zgroup", R"({"zarr_format":2})");
  r.SetText(".zgroup", R"({"zarr_format":2} )");
  ASSERT_EQ(r.entries.size(), 1u);
  EXPECT_EQ(r.FindEntry(".zgroup")->value.data, R"({"zarr_format":2} )");
  auto& a = r.AddArray("t", *ChunkGrid::Make({4}, {2}));
  a.AddRange(1, r.urls.Intern("f.nc"), 10, 10);
  EXPECT_EQ(r.ChunkCount(), 1u);
  EXPECT_NE(r.FindArray("t"), nullptr);
  EXPECT_EQ(r.FindArray("u"), nullptr);
  EXPECT_TRUE(r.RemoveEntry(".zgroup"));
  EXPECT_FALSE(r.RemoveEntry(".zgroup"));
}

TEST(ReferenceSetTest, ZarrayKeyArrayPath) {
  EXPECT_EQ(ZarrayKeyArrayPath(".zarray"), "");
  EXPECT_EQ(ZarrayKeyArrayPath("a/b/.zarray"), "a/b");
  EXPECT_EQ(ZarrayKeyArrayPath("a/b.zarray"), std::nullopt);
  EXPECT_EQ(ZarrayKeyArrayPath("a/.zattrs"), std::nullopt);
}

// The memory budget of the issue: 1M chunk references well under 200 MB.
TEST(ReferenceSetTest, MillionReferencesFitTheBudget) {
  ReferenceSet r;
  auto& a = r.AddArray("v", *ChunkGrid::Make({1000000}, {1}));
  a.Reserve(1000000);
  uint32_t u = r.urls.Intern("https://example.org/some/long/path/file.nc");
  for (uint64_t i = 0; i < 1000000; ++i) a.AddRange(i, u, i * 1000, 1000);
  ASSERT_TRUE(r.Finalize().ok());
  EXPECT_LT(r.MemoryUsage(), 40u << 20);
}

}  // namespace
}  // namespace kerchunk
