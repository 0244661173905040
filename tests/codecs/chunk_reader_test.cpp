#include "kerchunk/codecs/chunk_reader.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>
#include <random>

#include "support/test_env.h"

namespace kerchunk::codecs {
namespace {

using ::testing::HasSubstr;

TEST(DefaultUrlToPathTest, Schemes) {
  EXPECT_EQ(*DefaultUrlToPath("file:///tmp/a.nc"), "/tmp/a.nc");
  EXPECT_EQ(*DefaultUrlToPath("data/a.nc"), "data/a.nc");
  auto s3 = DefaultUrlToPath("s3://bucket/a.nc");
  EXPECT_EQ(s3.status().code(), StatusCode::kUnsupported);
  EXPECT_THAT(s3.status().message(), HasSubstr("s3://bucket/a.nc"));
}

class ChunkReaderTest : public ::testing::Test {
 protected:
  void SetUp() override {
    path_ = dir_ / "data.bin";
    std::ofstream(path_, std::ios::binary) << "0123456789abcdef";
    uint32_t url = refs_.urls.Intern("file://" + path_);
    ArrayRefs& a = refs_.AddArray("x", *ChunkGrid::Make({8}, {2}));
    a.AddRange(0, url, 2, 2);
    a.AddInline(1, "zz", true);
    a.AddWholeFile(2, url);
    a.AddRange(3, url, 15, 4);  // past the end of the 16-byte file
    ASSERT_TRUE(refs_.Finalize().ok());
  }
  testing::TempDir dir_;
  std::string path_;
  ReferenceSet refs_;
};

TEST_F(ChunkReaderTest, ReadsEveryKind) {
  const ArrayRefs& a = refs_.arrays[0];
  EXPECT_EQ(*ReadStoredChunk(refs_, a, 0), "23");
  EXPECT_EQ(*ReadStoredChunk(refs_, a, 1), "zz");
  EXPECT_EQ(*ReadStoredChunk(refs_, a, 2), "0123456789abcdef");
}

TEST_F(ChunkReaderTest, RangeBeyondEndNamesKey) {
  auto r = ReadStoredChunk(refs_, refs_.arrays[0], 3);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kDataLoss);
  EXPECT_THAT(r.status().message(), HasSubstr("chunk \"x/3\""));
}

TEST_F(ChunkReaderTest, CustomUrlMappingAndMissingFile) {
  UrlToPath missing = [](std::string_view) -> Result<std::string> {
    return std::string("/nonexistent/file.nc");
  };
  auto r = ReadStoredChunk(refs_, refs_.arrays[0], 0, missing);
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(r.status().message(), HasSubstr("x/0"));
}

TEST_F(ChunkReaderTest, DecodedChunkChecksSize) {
  Pipeline raw;
  EXPECT_EQ(*ReadDecodedChunk(refs_, refs_.arrays[0], 0, raw, 2), "23");
  auto r = ReadDecodedChunk(refs_, refs_.arrays[0], 0, raw, 3);
  EXPECT_EQ(r.status().code(), StatusCode::kDataLoss);
  EXPECT_THAT(r.status().message(), HasSubstr("chunk \"x/0\""));
}

TEST_F(ChunkReaderTest, BatchReadsEveryKindInTheOrderAsked) {
  const std::vector<size_t> positions = {2, 0, 1, 0};
  auto r = ReadStoredChunks(refs_, refs_.arrays[0], positions);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_THAT(*r, ::testing::ElementsAre("0123456789abcdef", "23", "zz", "23"));
}

TEST_F(ChunkReaderTest, BatchRangeBeyondEndNamesKeyAndNothingIsRead) {
  const std::vector<size_t> positions = {0, 3};
  auto r = ReadStoredChunks(refs_, refs_.arrays[0], positions);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kDataLoss);
  EXPECT_THAT(r.status().message(), HasSubstr("chunk \"x/3\""));
  EXPECT_THAT(r.status().message(), HasSubstr("(16 bytes)"));
}

TEST_F(ChunkReaderTest, BatchMissingFileNamesKey) {
  UrlToPath missing = [](std::string_view) -> Result<std::string> {
    return std::string("/nonexistent/file.nc");
  };
  const std::vector<size_t> positions = {0};
  auto r = ReadStoredChunks(refs_, refs_.arrays[0], positions, missing);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kNotFound);
  EXPECT_THAT(r.status().message(), HasSubstr("x/0"));
  EXPECT_THAT(r.status().message(), HasSubstr("/nonexistent/file.nc"));
}

// A remote location goes to the caller's reader: one call per file with every range, the bytes
// placed in the order asked; its error names the chunk. Without a reader it is not read.
TEST(ChunkReaderRemote, RangesOfARemoteFileGoToTheReader) {
  ReferenceSet refs;
  const uint32_t url = refs.urls.Intern("https://host/a.nc");
  ArrayRefs& a = refs.AddArray("t", *ChunkGrid::Make({3}, {1}));
  a.AddRange(0, url, 100, 2);
  a.AddRange(1, url, 10, 3);
  a.AddInline(2, "zz", true);
  ASSERT_TRUE(refs.Finalize().ok());
  std::vector<std::vector<std::pair<uint64_t, uint64_t>>> calls;
  auto identity = [](std::string_view u) -> Result<std::string> { return std::string(u); };
  UrlToPath remote(
      identity,
      [&](const std::string& location, std::span<const std::pair<uint64_t, uint64_t>> ranges)
          -> Result<std::vector<std::string>> {
        EXPECT_EQ(location, "https://host/a.nc");
        calls.emplace_back(ranges.begin(), ranges.end());
        std::vector<std::string> out;
        for (const auto& [offset, length] : ranges)
          out.push_back(fmt::format("{}+{}", offset, length));
        return out;
      });
  const std::vector<size_t> positions = {1, 2, 0};
  auto r = ReadStoredChunks(refs, refs.arrays[0], positions, remote);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_THAT(*r, ::testing::ElementsAre("10+3", "zz", "100+2"));
  ASSERT_EQ(calls.size(), 1u);
  EXPECT_EQ(calls[0].size(), 2u);
  EXPECT_EQ(*ReadStoredChunk(refs, refs.arrays[0], 0, remote), "100+2");
  UrlToPath failing(identity,
                    [](const std::string& location, auto) -> Result<std::vector<std::string>> {
                      return NotFoundError("{}: not found (HTTP 404)", location);
                    });
  auto missing = ReadStoredChunks(refs, refs.arrays[0], positions, failing);
  EXPECT_EQ(missing.status().code(), StatusCode::kNotFound);
  EXPECT_THAT(missing.status().message(), HasSubstr("https://host/a.nc: not found"));
  EXPECT_THAT(missing.status().message(), HasSubstr("chunk \"t/"));
  EXPECT_FALSE(ReadStoredChunks(refs, refs.arrays[0], positions, identity).ok());
}

// Property: whatever the ranges (far apart, adjacent, overlapping, repeated, empty, up to the
// last byte, more than one coalesced read long), the batch gives what one-by-one reads give.
TEST(ChunkReaderBatchProperty, SameBytesAsOneByOne) {
  testing::TempDir dir;
  const std::string path = dir / "big.bin";
  const uint64_t size = 3 * kCoalescedReadBytes / 2;
  std::mt19937_64 rng(20261126);
  {
    std::string bytes(size, '\0');
    for (auto& c : bytes) c = static_cast<char>(rng());
    std::ofstream(path, std::ios::binary) << bytes;
  }
  for (int round = 0; round < 20; ++round) {
    ReferenceSet refs;
    const uint32_t url = refs.urls.Intern(path);
    const uint64_t n = 1 + rng() % 400;
    ArrayRefs& a = refs.AddArray("v", *ChunkGrid::Make({n}, {1}));
    for (uint64_t chunk = 0; chunk < n; ++chunk) {
      uint64_t length = rng() % 4 == 0 ? 0 : 1 + rng() % 300;
      uint64_t offset = rng() % 3 == 0 ? rng() % (size - length)  // anywhere in the file
                                       : (chunk * 2 * kCoalescedGapBytes / 7) % (size - length);
      if (chunk + 1 == n) offset = size - length;  // the last byte of the file
      a.AddRange(chunk, url, offset, length);
    }
    ASSERT_TRUE(refs.Finalize().ok());
    std::vector<size_t> positions;
    for (uint64_t k = 0; k < n + n / 4; ++k) positions.push_back(rng() % n);
    auto batch = ReadStoredChunks(refs, refs.arrays[0], positions);
    ASSERT_TRUE(batch.ok()) << batch.status().message();
    ASSERT_EQ(batch->size(), positions.size());
    for (size_t k = 0; k < positions.size(); ++k) {
      auto one = ReadStoredChunk(refs, refs.arrays[0], positions[k]);
      ASSERT_TRUE(one.ok()) << one.status().message();
      ASSERT_EQ((*batch)[k], *one) << "round " << round << ", position " << positions[k];
    }
  }
}

TEST_F(ChunkReaderTest, BatchDecodedChecksSize) {
  Pipeline raw;
  const std::vector<size_t> positions = {0};
  EXPECT_THAT(*ReadDecodedChunks(refs_, refs_.arrays[0], positions, raw, 2),
              ::testing::ElementsAre("23"));
  auto r = ReadDecodedChunks(refs_, refs_.arrays[0], positions, raw, 3);
  EXPECT_EQ(r.status().code(), StatusCode::kDataLoss);
  EXPECT_THAT(r.status().message(), HasSubstr("chunk \"x/0\""));
}

}  // namespace
}  // namespace kerchunk::codecs
