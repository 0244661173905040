// The driver's own check that no reference points past the end of its file.
#include "scan/range_check.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace kerchunk::internal {
namespace {

using ::testing::HasSubstr;

ReferenceSet Refs(uint64_t offset, uint64_t length) {
  ReferenceSet refs;
  uint32_t file = refs.urls.Intern("/d/file.nc");
  uint32_t other = refs.urls.Intern("/d/other.nc");
  refs.SetText("x/.zarray", "{}");
  ArrayRefs& x = refs.AddArray("x", *ChunkGrid::Make({3, 4}, {1, 2}));
  x.AddRange(0, file, 0, 10);
  x.AddRange(1, file, offset, length);
  x.AddRange(2, other, 1'000'000, 10);  // another file's size is not known here
  x.AddWholeFile(3, file);
  x.AddInline(4, std::string(500, 'x'), true);
  EXPECT_TRUE(refs.Finalize().ok());
  return refs;
}

TEST(CheckRangesInsideTest, AcceptsRangesEndingAtTheEnd) {
  EXPECT_TRUE(CheckRangesInside(Refs(90, 10), "/d/file.nc", 100).ok());
  EXPECT_TRUE(CheckRangesInside(Refs(100, 0), "/d/file.nc", 100).ok());
}

TEST(CheckRangesInsideTest, RejectsARangePastTheEndNamingTheKey) {
  Status status = CheckRangesInside(Refs(95, 10), "/d/file.nc", 100);
  ASSERT_FALSE(status.ok());
  EXPECT_EQ(status.code(), StatusCode::kDataLoss);
  EXPECT_THAT(status.message(), HasSubstr("x/0.1 refers to 10 bytes at offset 95"));
  EXPECT_THAT(status.message(), HasSubstr("(100 bytes)"));
}

TEST(CheckRangesInsideTest, OffsetPlusLengthDoesNotWrapAround) {
  EXPECT_FALSE(CheckRangesInside(Refs(UINT64_MAX - 2, 5), "/d/file.nc", 100).ok());
  EXPECT_FALSE(CheckRangesInside(Refs(5, UINT64_MAX - 2), "/d/file.nc", 100).ok());
}

TEST(CheckRangesInsideTest, ChecksNonChunkKeysToo) {
  ReferenceSet refs = Refs(0, 1);
  refs.entries.push_back({"loose", EntryValue{EntryValue::Kind::kRange, "", 0, 99, 2}});
  Status status = CheckRangesInside(refs, "/d/file.nc", 100);
  ASSERT_FALSE(status.ok());
  EXPECT_THAT(status.message(), HasSubstr("loose"));
}

}  // namespace
}  // namespace kerchunk::internal
