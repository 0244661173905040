// HashUnreferencedBytes against its definition on a small file: ranges in any order,
// overlapping, touching, past the end of the file, and whole-file references.
#include "kerchunk/refs/source_checksum.h"

#include <gtest/gtest.h>

#include <random>

#include "kerchunk/refs/digest.h"
#include "kerchunk/util/file_io.h"
#include "support/test_env.h"

namespace kerchunk {
namespace {

std::string Naive(const std::string& bytes, const std::vector<ReferencedRange>& ranges) {
  std::string rest;
  for (uint64_t b = 0; b < bytes.size(); ++b) {
    bool referenced = false;
    for (const ReferencedRange& r : ranges) {
      referenced |= b >= r.offset && b - r.offset < r.length;
    }
    if (!referenced) rest.push_back(bytes[b]);
  }
  return rest;
}

TEST(SourceChecksumTest, HashesExactlyTheUnreferencedBytes) {
  testing::TempDir dir;
  const std::string path = dir / "file.bin";
  std::mt19937_64 random(7);
  std::string bytes(5000, '\0');
  for (char& c : bytes) c = static_cast<char>(random());
  ASSERT_TRUE(WriteFileAtomically(path, bytes).ok());
  for (int trial = 0; trial < 200; ++trial) {
    std::vector<ReferencedRange> ranges(random() % 6);
    for (ReferencedRange& r : ranges) {
      r.offset = random() % 5200;  // some start past the end
      r.length = random() % 3 == 0 ? UINT64_MAX - r.offset : random() % 1500;
    }
    Result<uint64_t> hash = HashUnreferencedBytes(path, ranges);
    ASSERT_TRUE(hash.ok()) << hash.status().message();
    EXPECT_EQ(*hash, Xxh3(Naive(bytes, ranges))) << "trial " << trial;
  }
  EXPECT_EQ(*HashUnreferencedBytes(path, {}), Xxh3(bytes));
  EXPECT_EQ(*HashUnreferencedBytes(path, {{0, UINT64_MAX}}), Xxh3(""));
}

TEST(SourceChecksumTest, MissingFileIsAnErrorNamingIt) {
  Result<uint64_t> hash = HashUnreferencedBytes("/nonexistent/file.nc", {});
  ASSERT_FALSE(hash.ok());
  EXPECT_NE(hash.status().message().find("/nonexistent/file.nc"), std::string::npos);
}

TEST(SourceChecksumTest, RangesByUrlIncludeChunksAndEntriesButNotInlineData) {
  ReferenceSet refs;
  const uint32_t a = refs.urls.Intern("a.nc"), b = refs.urls.Intern("b.nc");
  ArrayRefs& array = refs.AddArray("x", *ChunkGrid::Make({4}, {1}));
  array.AddRange(0, a, 100, 10);
  array.AddInline(1, "abc", false);
  array.AddWholeFile(2, b);
  array.AddRange(3, b, 7, 3);
  ASSERT_TRUE(array.Finalize().ok());
  refs.entries.push_back({"y/0", EntryValue{EntryValue::Kind::kRange, "", a, 5, 2}});
  auto ranges = ReferencedRangesByUrl(refs);
  ASSERT_EQ(ranges.size(), 2u);
  EXPECT_EQ(ranges[a], (std::vector<ReferencedRange>{{100, 10}, {5, 2}}));
  EXPECT_EQ(ranges[b], (std::vector<ReferencedRange>{{0, UINT64_MAX}, {7, 3}}));
}

}  // namespace
}  // namespace kerchunk
