// The native chunk-index walker against libhdf5 (H5Dget_chunk_info) on generated fixtures of
// every index type, plus unit tests of the superblock, object header and layout parsers.
#include "kerchunk/hdf5/chunk_index.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "hdf5/chunk_oracle.h"
#include "hdf5/oracle_check.h"
#include "kerchunk/hdf5/object_header.h"
#include "support/hdf5_fixtures.h"
#include "support/test_env.h"

namespace kerchunk::testing {
namespace {

using ::testing::HasSubstr;

// Every chunked dataset of `path`: the native walk reports exactly libhdf5's chunks.
void ExpectMatchesLibrary(const std::string& path, size_t min_datasets) {
  auto names = ListChunkedDatasets(path);
  ASSERT_TRUE(names.ok()) << names.status().ToString();
  EXPECT_GE(names->size(), min_datasets) << path;
  for (const auto& name : *names) {
    SCOPED_TRACE(path + ":" + name);
    ExpectDatasetMatchesLibrary(path, name);
  }
}

class ChunkIndexOracleTest : public ::testing::Test {
 protected:
  TempDir dir_;
};

#define KERCHUNK_ORACLE_TEST(Name, Writer, MinDatasets) \
  TEST_F(ChunkIndexOracleTest, Name) {                  \
    auto path = Writer(dir_.path());                    \
    ASSERT_TRUE(path.ok()) << path.status().ToString(); \
    ExpectMatchesLibrary(*path, MinDatasets);           \
  }

KERCHUNK_ORACLE_TEST(BTreeV1, WriteBTreeV1Fixture, 6)
KERCHUNK_ORACLE_TEST(SingleChunk, WriteSingleChunkFixture, 3)
KERCHUNK_ORACLE_TEST(Implicit, WriteImplicitFixture, 3)
KERCHUNK_ORACLE_TEST(FixedArray, WriteFixedArrayFixture, 6)
KERCHUNK_ORACLE_TEST(ExtensibleArray, WriteExtensibleArrayFixture, 6)
KERCHUNK_ORACLE_TEST(BTreeV2, WriteBTreeV2Fixture, 4)
KERCHUNK_ORACLE_TEST(UserBlock, WriteUserBlockFixture, 2)

TEST_F(ChunkIndexOracleTest, SmallFixturesOfEveryType) {
  for (const char* type :
       {"btree1", "single", "implicit", "farray", "farray_paged", "earray", "btree2"}) {
    auto path = WriteSmallIndexFixture(dir_.path(), type);
    ASSERT_TRUE(path.ok()) << path.status().ToString();
    ExpectMatchesLibrary(*path, 1);
  }
}

// The layout message names the index type libhdf5 chose for each fixture dataset.
TEST_F(ChunkIndexOracleTest, LayoutNamesTheExpectedIndexType) {
  struct Case {
    Result<std::string> (*write)(const std::filesystem::path&);
    const char* dataset;
    hdf5::ChunkIndexType type;
    uint8_t version;
  };
  const Case cases[] = {
      {WriteBTreeV1Fixture, "/d1", hdf5::ChunkIndexType::kBTreeV1, 3},
      {WriteSingleChunkFixture, "/single_deflate", hdf5::ChunkIndexType::kSingleChunk, 4},
      {WriteImplicitFixture, "/implicit", hdf5::ChunkIndexType::kImplicit, 4},
      {WriteFixedArrayFixture, "/fa_paged", hdf5::ChunkIndexType::kFixedArray, 4},
      {WriteExtensibleArrayFixture, "/ea", hdf5::ChunkIndexType::kExtensibleArray, 4},
      {WriteBTreeV2Fixture, "/bt2_deflate", hdf5::ChunkIndexType::kBTreeV2, 4},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(c.dataset);
    auto path = c.write(dir_.path());
    ASSERT_TRUE(path.ok()) << path.status().ToString();
    auto info = DatasetInfo(*path, c.dataset);
    ASSERT_TRUE(info.ok());
    auto bytes = ReadBytes(*path);
    auto file = hdf5::File::Open(bytes);
    ASSERT_TRUE(file.ok()) << file.status().ToString();
    auto layout = hdf5::ReadDataLayout(*file, info->object_header_address);
    ASSERT_TRUE(layout.ok()) << layout.status().ToString();
    EXPECT_EQ(layout->layout_class, hdf5::LayoutClass::kChunked);
    EXPECT_EQ(layout->index_type, c.type);
    EXPECT_EQ(layout->version, c.version);
    EXPECT_EQ(layout->rank(), info->dims.size());
  }
}

TEST_F(ChunkIndexOracleTest, SuperblockOfUserBlockFile) {
  auto path = WriteUserBlockFixture(dir_.path());
  ASSERT_TRUE(path.ok());
  auto bytes = ReadBytes(*path);
  auto sb = hdf5::ReadSuperblock(bytes);
  ASSERT_TRUE(sb.ok()) << sb.status().ToString();
  EXPECT_EQ(sb->version, 3);
  EXPECT_EQ(sb->superblock_offset, 512u);
  EXPECT_EQ(sb->base_address, 512u);
  EXPECT_EQ(sb->size_of_offsets, 8);
  EXPECT_EQ(sb->size_of_lengths, 8);
  // libhdf5 stores the end-of-file address including the user block.
  EXPECT_EQ(sb->end_of_file_address, bytes.size());
}

TEST(SuperblockTest, NoSignature) {
  std::vector<std::byte> bytes(4096, std::byte{0});
  auto sb = hdf5::ReadSuperblock(bytes);
  ASSERT_FALSE(sb.ok());
  EXPECT_EQ(sb.status().code(), StatusCode::kDataLoss);
  EXPECT_THAT(sb.status().message(), HasSubstr("signature not found"));
}

TEST(SuperblockTest, TruncatedAndBadVersion) {
  std::string image = "\x89HDF\r\n\x1a\n";
  std::vector<std::byte> bytes(image.size());
  std::memcpy(bytes.data(), image.data(), image.size());
  EXPECT_EQ(hdf5::ReadSuperblock(bytes).status().code(), StatusCode::kDataLoss);
  bytes.push_back(std::byte{9});
  auto sb = hdf5::ReadSuperblock(bytes);
  EXPECT_THAT(sb.status().message(), HasSubstr("expected version 0..3, got 9"));
}

TEST_F(ChunkIndexOracleTest, RankMismatchIsInvalidArgument) {
  auto path = WriteSmallIndexFixture(dir_.path(), "farray");
  ASSERT_TRUE(path.ok());
  auto info = DatasetInfo(*path, "/data");
  ASSERT_TRUE(info.ok());
  info->dims.push_back(3);
  auto chunks = NativeChunks(ReadBytes(*path), *info);
  EXPECT_EQ(chunks.status().code(), StatusCode::kInvalidArgument);
}

TEST_F(ChunkIndexOracleTest, VisitorErrorStopsTheWalk) {
  auto path = WriteSmallIndexFixture(dir_.path(), "earray");
  ASSERT_TRUE(path.ok());
  auto info = DatasetInfo(*path, "/data");
  auto bytes = ReadBytes(*path);
  auto file = hdf5::File::Open(bytes);
  auto layout = hdf5::ReadDataLayout(*file, info->object_header_address);
  int calls = 0;
  Status s = hdf5::WalkChunkIndex(*file, *layout, *info,
                                  [&](std::span<const uint64_t>, uint64_t, uint64_t, uint32_t) {
                                    return ++calls == 3 ? NotFoundError("stop") : OkStatus();
                                  });
  EXPECT_EQ(s.code(), StatusCode::kNotFound);
  EXPECT_EQ(calls, 3);
}

}  // namespace
}  // namespace kerchunk::testing
