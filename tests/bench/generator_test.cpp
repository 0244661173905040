// The bench generators make what they say: the NetCDF series (checked by scanning it) and the
// generated reference sets (counts, URL lengths, contiguous layouts, the requested gfactor as
// pack measures it).
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <netcdf.h>

#include <algorithm>
#include <filesystem>

#include "kerchunk/bench/netcdf_series.h"
#include "kerchunk/bench/synthetic_set.h"
#include "kerchunk/pack/pack.h"
#include "kerchunk/scan/file_scan.h"
#include "support/test_env.h"

namespace kerchunk::bench {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

// pack's gfactor over all generators: the share of chunk slots holding the modal length.
double PackedGfactor(const ReferenceSet& refs) {
  auto packed = pack::Pack(refs);
  EXPECT_TRUE(packed.ok()) << packed.status().message();
  uint64_t slots = 0, others = 0;
  for (const auto& g : packed->summary.generators) {
    slots += g.slots;
    others += g.unique + g.skipped;
  }
  return slots ? 1.0 - static_cast<double>(others) / static_cast<double>(slots) : 0;
}

// The name of the file's unlimited dimension, read with netCDF-C ("" if none).
std::string UnlimitedDimension(const std::string& path) {
  int ncid = -1, dim = -1;
  char name[NC_MAX_NAME + 1] = "";
  if (nc_open(path.c_str(), NC_NOWRITE, &ncid) != NC_NOERR) return "cannot open";
  if (nc_inq_unlimdim(ncid, &dim) == NC_NOERR && dim >= 0) nc_inq_dimname(ncid, dim, name);
  nc_close(ncid);
  return name;
}

TEST(SquarestGridTest, FactorsIntoTheMostSquareGrid) {
  EXPECT_EQ(SquarestGrid(1000), std::make_pair(uint64_t{25}, uint64_t{40}));
  EXPECT_EQ(SquarestGrid(36), std::make_pair(uint64_t{6}, uint64_t{6}));
  EXPECT_EQ(SquarestGrid(13), std::make_pair(uint64_t{1}, uint64_t{13}));
  EXPECT_EQ(SquarestGrid(1), std::make_pair(uint64_t{1}, uint64_t{1}));
}

TEST(NetcdfSeriesTest, ScanFindsExactlyTheChunksWritten) {
  testing::TempDir dir;
  NetcdfSeriesOptions o;
  o.files = 3;
  o.chunks_per_file = 12;
  o.variables = 2;
  o.missing = 0.25;  // 3 of the 12 spatial chunks of "tp" are land
  o.gfactor = 0.3;
  auto series = WriteNetcdfSeries(dir.path() / "files", o);
  ASSERT_TRUE(series.ok()) << series.status().message();
  EXPECT_THAT(series->variable_names, ElementsAre("t2m", "tp"));
  EXPECT_THAT(series->chunks_written, ElementsAre(36u, 27u));
  ASSERT_EQ(series->paths.size(), 3u);
  EXPECT_EQ(std::filesystem::path(series->paths[0]).filename(), "day_20000101.nc");
  EXPECT_EQ(std::filesystem::path(series->paths[2]).filename(), "day_20000103.nc");
  for (const std::string& path : series->paths) {
    auto scanned = ScanFile(path, path, {});
    ASSERT_TRUE(scanned.ok()) << scanned.status().message();
    ASSERT_NE(scanned->refs.FindArray("t2m"), nullptr);
    EXPECT_EQ(scanned->refs.FindArray("t2m")->size(), 12u);
    EXPECT_EQ(scanned->refs.FindArray("tp")->size(), 9u);
    EXPECT_EQ(UnlimitedDimension(path), "time");
  }
  EXPECT_GT(series->total_bytes, 0u);
}

TEST(NetcdfSeriesTest, FillChunksGiveTheRequestedGfactor) {
  testing::TempDir dir;
  NetcdfSeriesOptions o;
  o.files = 4;
  o.chunks_per_file = 100;
  o.variables = 3;
  o.missing = 0.1;
  o.gfactor = 0.4;
  auto series = WriteNetcdfSeries(dir.path(), o);
  ASSERT_TRUE(series.ok()) << series.status().message();
  // One file's references carry every variable's lengths; all files together are what the
  // bench packs, but one file (300 slots) already shows the share.
  ReferenceSet all;
  for (const std::string& path : series->paths) {
    auto scanned = ScanFile(path, path, {});
    ASSERT_TRUE(scanned.ok()) << scanned.status().message();
    if (path == series->paths.front()) all = std::move(scanned->refs);
  }
  EXPECT_NEAR(PackedGfactor(all), 0.4, 0.08);
}

TEST(NetcdfSeriesTest, RejectsAGfactorLargerThanTheWrittenShare) {
  NetcdfSeriesOptions o;
  o.variables = 1;
  o.missing = 0.5;
  o.gfactor = 0.6;
  Status s = ValidateNetcdfSeriesOptions(o);
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(s.message(), HasSubstr("--gfactor"));
  o.gfactor = 0.4;
  o.missing = 1.0;
  EXPECT_THAT(ValidateNetcdfSeriesOptions(o).message(), HasSubstr("--missing"));
}

TEST(SyntheticSetTest, CountsUrlsAndGfactorFollowTheOptions) {
  NetcdfSeriesOptions o;
  o.files = 20;
  o.chunks_per_file = 50;
  o.variables = 3;
  o.missing = 0.2;
  o.gfactor = 0.4;
  auto refs = MakeSyntheticReferenceSet(o, 90);
  ASSERT_TRUE(refs.ok()) << refs.status().message();
  EXPECT_EQ(refs->urls.size(), 20u);
  for (const std::string& url : refs->urls.urls()) {
    EXPECT_EQ(url.size(), 90u) << url;
    EXPECT_EQ(url.find("//", 5), std::string::npos) << url;
  }
  for (const char* name : {"t2m", "tp"}) {
    ASSERT_NE(refs->FindArray(name), nullptr) << name;
    EXPECT_EQ(refs->FindArray(name)->size(), 20u * 50) << name;
  }
  EXPECT_NEAR(PackedGfactor(*refs), 0.4, 0.05);
}

TEST(SyntheticSetTest, FillChunksKeepEveryFileContiguous) {
  NetcdfSeriesOptions o;
  o.files = 5;
  o.chunks_per_file = 40;
  auto refs = MakeSyntheticReferenceSet(o);
  ASSERT_TRUE(refs.ok()) << refs.status().message();
  struct Range {
    uint32_t url;
    uint64_t offset, length;
  };
  std::vector<Range> ranges;
  for (const ArrayRefs& a : refs->arrays) {
    for (size_t i = 0; i < a.size(); ++i) {
      ranges.push_back({a.urls()[i], a.offsets()[i], a.lengths()[i]});
    }
  }
  std::sort(ranges.begin(), ranges.end(), [](const Range& x, const Range& y) {
    return x.url != y.url ? x.url < y.url : x.offset < y.offset;
  });
  uint64_t fill = 0;
  for (size_t i = 0; i < ranges.size(); ++i) {
    fill += ranges[i].length == kFillChunkLength ? 1 : 0;
    if (i > 0 && ranges[i].url == ranges[i - 1].url) {
      const uint64_t end = ranges[i - 1].offset + ranges[i - 1].length;
      ASSERT_GE(ranges[i].offset, end) << "overlap at reference " << i;
      EXPECT_LT(ranges[i].offset - end, 8192u) << "hole at reference " << i;
    }
  }
  EXPECT_GT(fill, ranges.size() / 4);
}

TEST(SyntheticSetTest, RejectsUrlsTooShortForTheFileNames) {
  NetcdfSeriesOptions o;
  o.files = 2;
  o.chunks_per_file = 4;
  auto refs = MakeSyntheticReferenceSet(o, 20);
  EXPECT_EQ(refs.status().code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(refs.status().message(), HasSubstr("--url-length: expected at least"));
}

}  // namespace
}  // namespace kerchunk::bench
