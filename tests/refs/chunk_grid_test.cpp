#include "kerchunk/refs/chunk_grid.h"

#include <gtest/gtest.h>

#include <random>

namespace kerchunk {
namespace {

TEST(ChunkGridTest, CountsAreCeilings) {
  auto g = ChunkGrid::Make({10, 7, 0}, {3, 7, 5});
  ASSERT_TRUE(g.ok());
  EXPECT_EQ(g->counts(), (std::vector<uint64_t>{4, 1, 0}));
  EXPECT_EQ(g->num_chunks(), 0u);
}

TEST(ChunkGridTest, ScalarHasOneChunkNamedZero) {
  auto g = ChunkGrid::Make({}, {});
  ASSERT_TRUE(g.ok());
  EXPECT_EQ(g->num_chunks(), 1u);
  EXPECT_EQ(g->Key(0), "0");
  EXPECT_EQ(g->ParseKey("0"), 0u);
  EXPECT_EQ(g->ParseKey("0.0"), std::nullopt);
}

TEST(ChunkGridTest, KeysRoundTrip) {
  auto g = *ChunkGrid::Make({100, 20, 5}, {10, 3, 5});
  std::vector<uint64_t> c(3);
  for (uint64_t i = 0; i < g.num_chunks(); ++i) {
    std::string key = g.Key(i);
    EXPECT_EQ(g.ParseKey(key), i) << key;
    g.Coords(i, c);
    EXPECT_EQ(g.Linear(c), i);
  }
  EXPECT_EQ(g.Key(g.Linear(std::vector<uint64_t>{9, 6, 0})), "9.6.0");
}

TEST(ChunkGridTest, RejectsNonCanonicalAndOutOfGridKeys) {
  auto g = *ChunkGrid::Make({100, 20}, {10, 3});
  EXPECT_EQ(g.ParseKey("10.0"), std::nullopt) << "outside the grid";
  EXPECT_EQ(g.ParseKey("01.0"), std::nullopt) << "leading zero";
  EXPECT_EQ(g.ParseKey("1.0.0"), std::nullopt) << "rank";
  EXPECT_EQ(g.ParseKey("1/0"), std::nullopt) << "separator";
  EXPECT_EQ(g.ParseKey("1."), std::nullopt);
  EXPECT_EQ(g.ParseKey("-1.0"), std::nullopt);
  EXPECT_EQ(g.ParseKey("1.0 "), std::nullopt);
  EXPECT_EQ(g.ParseKey("99999999999999999999999.0"), std::nullopt);
  auto slash = *ChunkGrid::Make({100, 20}, {10, 3}, '/');
  EXPECT_EQ(slash.ParseKey("1/2"), slash.Linear(std::vector<uint64_t>{1, 2}));
  EXPECT_EQ(slash.Key(slash.Linear(std::vector<uint64_t>{1, 2})), "1/2");
}

TEST(ChunkGridTest, RejectsBadShapes) {
  EXPECT_FALSE(ChunkGrid::Make({10}, {0}).ok());
  EXPECT_FALSE(ChunkGrid::Make({10}, {1, 1}).ok());
  EXPECT_FALSE(ChunkGrid::Make({1ull << 40, 1ull << 40}, {1, 1}).ok()) << "2^80 chunks";
}

TEST(ChunkGridTest, FromZarray) {
  auto g = ChunkGrid::FromZarray(
      R"({"chunks":[2,3],"compressor":null,"dtype":"<f4","fill_value":0.0,"filters":null,)"
      R"("order":"C","shape":[5,3],"zarr_format":2})");
  ASSERT_TRUE(g.ok()) << g.status().message();
  EXPECT_EQ(g->counts(), (std::vector<uint64_t>{3, 1}));
  EXPECT_FALSE(ChunkGrid::FromZarray("{\"shape\":[1]}").ok());
  EXPECT_FALSE(ChunkGrid::FromZarray("not json").ok());
  EXPECT_FALSE(ChunkGrid::FromZarray(R"({"shape":[-1],"chunks":[1]})").ok());
}

}  // namespace
}  // namespace kerchunk
