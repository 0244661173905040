#include "kerchunk/codecs/chunk_reader.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>

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

}  // namespace
}  // namespace kerchunk::codecs
