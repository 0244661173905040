#include "kerchunk/pack/selection.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace kerchunk::pack {
namespace {

using ::testing::HasSubstr;
using Ranges = std::vector<std::pair<uint64_t, uint64_t>>;

Ranges RangesOf(const std::string& text, const ChunkGrid& grid) {
  auto s = ParseSelection(text);
  EXPECT_TRUE(s.ok()) << s.status().message();
  auto r = SelectedChunkRanges(*s, grid);
  EXPECT_TRUE(r.ok()) << r.status().message();
  return r.ok() ? *r : Ranges();
}

TEST(SelectionTest, ParsesPathsIndexesAndSlices) {
  auto s = ParseSelection(" grp/lst[0:10, :, -5, 100: ] ");
  ASSERT_TRUE(s.ok()) << s.status().message();
  EXPECT_EQ(s->array, "grp/lst");
  ASSERT_EQ(s->dimensions.size(), 4u);
  EXPECT_EQ(s->dimensions[0].start, 0);
  EXPECT_EQ(s->dimensions[0].stop, 10);
  EXPECT_FALSE(s->dimensions[1].start.has_value());
  EXPECT_TRUE(s->dimensions[2].index);
  EXPECT_EQ(s->dimensions[2].start, -5);
  EXPECT_FALSE(s->dimensions[3].stop.has_value());
  auto whole = ParseSelection("tas");
  ASSERT_TRUE(whole.ok());
  EXPECT_TRUE(whole->dimensions.empty());
}

TEST(SelectionTest, RejectsWhatItDoesNotSupport) {
  EXPECT_THAT(ParseSelection("x[0:10:2]").status().message(), HasSubstr("steps"));
  EXPECT_THAT(ParseSelection("x[...]").status().message(), HasSubstr("'...'"));
  EXPECT_THAT(ParseSelection("[0]").status().message(), HasSubstr("array path"));
  EXPECT_THAT(ParseSelection("x[0").status().message(), HasSubstr("array[dim"));
  EXPECT_THAT(ParseSelection("x[a]").status().message(), HasSubstr("\"a\" is not an integer"));
  EXPECT_THAT(ParseSelection("x[0,,1]").status().message(), HasSubstr("empty index"));
  EXPECT_EQ(ParseSelection("x[1]]").status().code(), StatusCode::kInvalidArgument);
}

TEST(SelectionTest, ChunkRangesFollowNumpySlicing) {
  auto grid = *ChunkGrid::Make({100, 50, 7}, {10, 20, 7});  // 10 x 3 x 1 chunks
  EXPECT_EQ(RangesOf("x[0:10, :, 3]", grid), (Ranges{{0, 1}, {0, 3}, {0, 1}}));
  EXPECT_EQ(RangesOf("x[5:25]", grid), (Ranges{{0, 3}, {0, 3}, {0, 1}}));
  EXPECT_EQ(RangesOf("x[-1, 40:]", grid), (Ranges{{9, 10}, {2, 3}, {0, 1}}));
  EXPECT_EQ(RangesOf("x[-1000:1000, -21:-20]", grid), (Ranges{{0, 10}, {1, 2}, {0, 1}}));
  EXPECT_EQ(RangesOf("x[7:7]", grid), (Ranges{{0, 0}, {0, 3}, {0, 1}}));  // empty
  EXPECT_EQ(RangesOf("x[9:3]", grid), (Ranges{{0, 0}, {0, 3}, {0, 1}}));
  auto s = ParseSelection("x[100]");
  EXPECT_THAT(SelectedChunkRanges(*s, grid).status().message(),
              HasSubstr("index 100 is out of bounds for dimension 0 of size 100"));
  auto negative = ParseSelection("x[-101]");
  EXPECT_FALSE(SelectedChunkRanges(*negative, grid).ok());
  auto scalar = *ChunkGrid::Make({}, {});
  EXPECT_TRUE(RangesOf("s", scalar).empty());
  EXPECT_THAT(SelectedChunkRanges(*ParseSelection("s[0]"), scalar).status().message(),
              HasSubstr("1 dimensions given, the array has 0"));
}

}  // namespace
}  // namespace kerchunk::pack
