// Input expansion (files, folders, patterns, file lists), sorting, de-duplication and shards.
#include "kerchunk/scan/input_list.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>

#include "support/test_env.h"

namespace kerchunk {
namespace {

namespace fs = std::filesystem;
using ::testing::ElementsAre;
using ::testing::HasSubstr;
using testing::TempDir;

const char kHdf5Magic[] = "\x89HDF\r\n\x1a\n";

void WriteBytes(const fs::path& path, const std::string& bytes) {
  fs::create_directories(path.parent_path());
  std::ofstream(path, std::ios::binary) << bytes;
}

std::string Hdf5Like() { return std::string(kHdf5Magic, 8) + std::string(100, '\0'); }
std::string Netcdf3Like() { return std::string("CDF\x01", 4) + std::string(100, '\0'); }

// A folder with scannable files at several depths, other files, and hidden entries.
class InputTree : public ::testing::Test {
 protected:
  void SetUp() override {
    WriteBytes(root() / "b.nc", Netcdf3Like());
    WriteBytes(root() / "a.h5", Hdf5Like());
    WriteBytes(root() / "sub" / "c.nc4", Hdf5Like());
    WriteBytes(root() / "sub" / "deeper" / "d.nc", Netcdf3Like());
    WriteBytes(root() / "README.md", "not data");
    WriteBytes(root() / "sub" / "notes.nc", "text with a .nc name");
    WriteBytes(root() / ".hidden.nc", Netcdf3Like());
    WriteBytes(root() / ".snapshot" / "old.nc", Netcdf3Like());
    // HDF5 after a 1024-byte user block still counts.
    WriteBytes(root() / "userblock.h5", std::string(1024, 'u') + Hdf5Like());
  }
  fs::path root() const { return dir_.path() / "tree"; }
  std::string at(const std::string& rel) const { return (root() / rel).string(); }
  TempDir dir_;
};

TEST_F(InputTree, FolderIsSearchedRecursivelyForHdf5AndNetcdf3) {
  auto files = ExpandInputs({root().string()});
  ASSERT_TRUE(files.ok()) << files.status().message();
  EXPECT_THAT(*files, ElementsAre(at("a.h5"), at("b.nc"), at("sub/c.nc4"), at("sub/deeper/d.nc"),
                                  at("userblock.h5")));
}

TEST_F(InputTree, ExplicitFileIsTakenWhateverItHolds) {
  auto files = ExpandInputs({at("README.md")});
  ASSERT_TRUE(files.ok());
  EXPECT_THAT(*files, ElementsAre(at("README.md")));
}

TEST_F(InputTree, PatternIsExpandedAndMatchesAreSortedAndDeduplicated) {
  auto files = ExpandInputs({at("*.nc"), at("b.nc"), at("sub/../b.nc"), at("?.h5")});
  ASSERT_TRUE(files.ok()) << files.status().message();
  EXPECT_THAT(*files, ElementsAre(at("a.h5"), at("b.nc")));
}

TEST_F(InputTree, PatternMatchingAFolderSearchesIt) {
  auto files = ExpandInputs({at("s[u]b")});
  ASSERT_TRUE(files.ok()) << files.status().message();
  EXPECT_THAT(*files, ElementsAre(at("sub/c.nc4"), at("sub/deeper/d.nc")));
}

TEST_F(InputTree, RelativePathsBecomeAbsolute) {
  fs::path old = fs::current_path();
  fs::current_path(root());
  auto files = ExpandInputs({"./sub/../b.nc", "sub"});
  fs::current_path(old);
  ASSERT_TRUE(files.ok());
  EXPECT_THAT(*files, ElementsAre(at("b.nc"), at("sub/c.nc4"), at("sub/deeper/d.nc")));
}

TEST_F(InputTree, MissingFileAndUnmatchedPatternAreNotFound) {
  auto missing = ExpandInputs({at("nope.nc")});
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().code(), StatusCode::kNotFound);
  EXPECT_THAT(missing.status().message(), HasSubstr(at("nope.nc")));
  auto unmatched = ExpandInputs({at("*.grib")});
  ASSERT_FALSE(unmatched.ok());
  EXPECT_EQ(unmatched.status().code(), StatusCode::kNotFound);
  EXPECT_THAT(unmatched.status().message(), HasSubstr("no file matches"));
}

TEST_F(InputTree, ExistingNameWithPatternCharactersIsLiteral) {
  WriteBytes(root() / "odd[1].nc", Netcdf3Like());
  auto files = ExpandInputs({at("odd[1].nc")});
  ASSERT_TRUE(files.ok());
  EXPECT_THAT(*files, ElementsAre(at("odd[1].nc")));
}

TEST_F(InputTree, FilePatternsForCombineKeepOrder) {
  auto files = ExpandFilePatterns({at("b.nc"), at("*.h5")});
  ASSERT_TRUE(files.ok());
  EXPECT_THAT(*files, ElementsAre(at("b.nc"), at("a.h5"), at("userblock.h5")));
  EXPECT_EQ(ExpandFilePatterns({at("none.json")}).status().code(), StatusCode::kNotFound);
}

TEST(ReadFileListTest, OnePathPerLineIgnoringEmptyLinesAndCarriageReturns) {
  std::istringstream in("a.nc\r\n\n  spaced name.nc\n#not-a-comment.nc\nlast.nc");
  EXPECT_THAT(ReadFileList(in),
              ElementsAre("a.nc", "  spaced name.nc", "#not-a-comment.nc", "last.nc"));
}

TEST(ParseShardTest, AcceptsZeroBasedIndex) {
  auto shard = ParseShard("0/4");
  ASSERT_TRUE(shard.ok());
  EXPECT_EQ(shard->index, 0u);
  EXPECT_EQ(shard->count, 4u);
  EXPECT_TRUE(ParseShard("3/4").ok());
  // `seq -w` pads with zeros; the index stays what it says.
  auto padded = ParseShard("07/16");
  ASSERT_TRUE(padded.ok());
  EXPECT_EQ(padded->index, 7u);
}

TEST(ParseShardTest, RejectsMalformedAndOutOfRange) {
  for (const char* bad : {"4/4", "1/0", "", "1", "a/b", "-1/3", "1/3/4", "1 /3", "1/"}) {
    auto shard = ParseShard(bad);
    EXPECT_FALSE(shard.ok()) << bad;
    EXPECT_EQ(shard.status().code(), StatusCode::kInvalidArgument) << bad;
  }
  EXPECT_THAT(ParseShard("4/4").status().message(), HasSubstr("0..3"));
}

TEST(ShardSliceTest, SlicesCoverTheListExactlyOnceInOrder) {
  std::mt19937_64 rng(42);
  for (int trial = 0; trial < 300; ++trial) {
    size_t m = rng() % 60;
    size_t n = 1 + rng() % 80;
    std::vector<std::string> files;
    for (size_t i = 0; i < m; ++i) files.push_back(std::to_string(1000 + i));
    std::vector<std::string> joined;
    size_t smallest = m, largest = 0;
    for (size_t k = 0; k < n; ++k) {
      auto slice = ShardSlice(files, Shard{k, n});
      smallest = std::min(smallest, slice.size());
      largest = std::max(largest, slice.size());
      joined.insert(joined.end(), slice.begin(), slice.end());
    }
    ASSERT_EQ(joined, files) << "m=" << m << " n=" << n;
    EXPECT_LE(largest - std::min(smallest, largest), 1u) << "m=" << m << " n=" << n;
  }
}

}  // namespace
}  // namespace kerchunk
