// RetainedBytes: what a remote file's scan keeps for combine answers only what it holds whole.
#include <gtest/gtest.h>

#include "kerchunk/scan/source_scan.h"

namespace kerchunk {
namespace {

TEST(RetainedBytesTest, FindsRangesInsideOneKeptRangeOnly) {
  RetainedBytes kept;
  kept.Add(100, "abcdefgh");  // 100..107
  kept.Add(200, "XYZ");       // 200..202
  EXPECT_EQ(kept.size(), 11u);
  EXPECT_EQ(kept.Find(100, 8), "abcdefgh");
  EXPECT_EQ(kept.Find(103, 2), "de");
  EXPECT_EQ(kept.Find(107, 1), "h");
  EXPECT_EQ(kept.Find(201, 2), "YZ");
  EXPECT_EQ(kept.Find(108, 0), "");            // empty, at the end of a kept range
  EXPECT_FALSE(kept.Find(99, 2));              // starts before
  EXPECT_FALSE(kept.Find(106, 3));             // runs past the end
  EXPECT_FALSE(kept.Find(150, 1));             // between
  EXPECT_FALSE(kept.Find(0, 1));               // before every range
  EXPECT_FALSE(kept.Find(107, ~uint64_t{0}));  // no overflow
  EXPECT_FALSE(RetainedBytes().Find(0, 0));
}

}  // namespace
}  // namespace kerchunk
