// `kerchunk scan` on the shared corpus (../shared/data, skipped when absent):
//  - truncated and byte-flipped copies of real files never crash or hang the program; a failure
//    is a one-line error naming the copy, with no output or temporary file left behind, and a
//    copy that still scans has no reference past its end;
//  - every multi-file series of timeseries/ scanned in K/N shards and combined gives exactly
//    what one scan of all its files gives (or both fail).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <random>

#include "cli_testing.h"
#include "kerchunk/json/kerchunk_json.h"
#include "support/refs_testing.h"

namespace kerchunk {
namespace {

namespace fs = std::filesystem;
using testing::FilesIn;
using ::testing::IsEmpty;
using testing::IsOneLineError;
using testing::RunKerchunk;
using testing::ShellQuote;

// Real files of each kind: NetCDF-4 (several chunk indexes, filters), NetCDF-3 classic and
// 64-bit offset, HDF5 with every index type.
const std::string kCorruptionSources[] = {
    "real_netcdf4/iris-sample-data/rotated_pole.nc",
    "real_netcdf4/ncmeta/gridmet_sample.nc",
    "real_netcdf4/netcdf4-python/issue671.nc",
    "netcdf3/netcdf-c/ref_nctest_classic.nc",
    "netcdf3/netcdf-c/ref_nctest_64bit_offset.nc",
    "index_types/hdf5/h5fc_ext1_f.h5",
    "index_types/jhdf/fixed_array_paged_datasets.hdf5",
    "timeseries/nc4_cmip6_rlds_INM-CM5-0_mon_2files/"
    "rlds_Amon_INM-CM5-0_historical_r1i1p1f1_gr1_185001-194912.nc",
};

class CorruptRealFileTest : public ::testing::TestWithParam<std::string> {};

TEST_P(CorruptRealFileTest, FailsCleanlyOrScans) {
  KERCHUNK_SKIP_WITHOUT_SHARED_DATA();
  std::string source = (*testing::SharedDataDir() / GetParam()).string();
  testing::TempDir dir;
  fs::path copies_dir = dir.path() / "copies", out = dir.path() / "out";
  fs::create_directories(copies_dir);
  fs::create_directories(out);
  std::string out_json = ShellQuote((out / "refs.json").string());
  const std::string options = " -q -j 1 --on-unsupported skip -o " + out_json;
  auto original = RunKerchunk("scan " + ShellQuote(source) + options);
  ASSERT_EQ(original.exit_code, 0) << original.err;
  fs::remove(out / "refs.json");

  uint64_t size = fs::file_size(source);
  std::vector<std::string> copies;
  for (uint64_t cut :
       {uint64_t{0}, uint64_t{7}, uint64_t{100}, uint64_t{600}, size / 4, size / 2, size - 1}) {
    copies.push_back(testing::TruncatedCopy(source, copies_dir, cut));
  }
  // Flips in the first 4 KB (superblock, headers, first index nodes) and anywhere in the file.
  for (uint64_t at = 0; at < std::min<uint64_t>(size, 4096); at += 61) {
    copies.push_back(testing::FlippedCopy(source, copies_dir, at));
  }
  std::mt19937_64 rng(size);
  for (int i = 0; i < 40; ++i)
    copies.push_back(testing::FlippedCopy(source, copies_dir, rng() % size));

  int failed = 0;
  for (const std::string& copy : copies) {
    auto r = RunKerchunk("scan " + ShellQuote(copy) + options, 60);
    if (r.exit_code == 0) {
      EXPECT_TRUE(
          testing::ReferenceFileRangesInside((out / "refs.json").string(), fs::file_size(copy)))
          << copy;
      fs::remove(out / "refs.json");
    } else {
      ++failed;
      EXPECT_TRUE(IsOneLineError(r, "scan", copy)) << copy;
    }
    EXPECT_THAT(FilesIn(out), IsEmpty()) << copy;
    for (const auto& left : FilesIn(out)) fs::remove(out / left);  // judge each copy alone
    fs::remove(copy);
  }
  EXPECT_GE(failed, 4) << "copies cut to 0, 7, 100 and 600 bytes cannot scan";
  RecordProperty("failed_copies", failed);
}

INSTANTIATE_TEST_SUITE_P(Corpus, CorruptRealFileTest, ::testing::ValuesIn(kCorruptionSources),
                         [](const auto& param_info) {
                           std::string name = fs::path(param_info.param).stem().string();
                           for (char& c : name) {
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           }
                           return name;
                         });

// One multi-file series: its folder under timeseries/ and how to combine it.
struct Series {
  std::string folder;
  std::string concat_dim;
  std::string identical_dims;  // comma-separated, may be empty
  std::string refusal;         // part of the error of a series that cannot be combined
  // Files that overlap completely: refused by default, combined with --on-overlap later.
  bool overlaps_completely = false;
};

void PrintTo(const Series& s, std::ostream* os) { *os << s.folder; }

// identical_dims as Python kerchunk's run used them (expected/kerchunk-0.2.2/log.json).
const Series kSeries[] = {
    {"nc3_cmip5_mrsos_HadGEM2-ES_day_11files", "time", ""},
    // Each file counts time, and its time_bnds, from its own decade: both are converted.
    {"nc3_cmip5_tas_EC-EARTH_mon_16files", "time", ""},
    {"nc3_cmip5_tas_HadGEM2-ES_rcp85_mon_13files_overlap", "time", ""},
    {"nc3_geocat_metar_sao_hourly_24files", "report", "",
     "variable \"PRECIP\" of the first part is missing"},
    {"nc4_cmip6_rlds_INM-CM5-0_mon_2files", "time", "lat,lat_bnds,lon,lon_bnds"},
    {"nc4_cmip6_siconc_GFDL-ESM4_mon_2files", "time", "lat,lat_bnds,lon,lon_bnds,x,y"},
    {"nc4_cmip6_siconc_MPI-ESM1-2-HR_mon_33files", "time",
     "i,j,latitude,longitude,type,vertices_latitude,vertices_longitude"},
    {"nc4_contiguous_padocc_1DAgg_8files", "time", "lat,lon,height,lat_projection"},
    // Four files per time value (split along lat and lon).
    {"nc4_contiguous_padocc_3DAgg_time+lat+lon_8files", "time", "lat,lon,height,lat_projection", "",
     true},
    {"nc4_contiguous_padocc_rain_5files", "time", "latitude,longitude"},
    {"nc4_cordex_pr_NAM-22_day_2files", "time", "lat,lon,rlat,rlon,rotated_pole"},
    {"nc4_hidefix_jan_feb", "time", "", "cannot be combined without rechunking"},
    // The COMBINED_reference file covers the three day files' times.
    {"nc4_opendrift_Nordic_ROMS_3days", "ocean_time", "", "", true},
};

class SeriesShardTest : public ::testing::TestWithParam<Series> {};

TEST_P(SeriesShardTest, ShardsCombineToTheFullScan) {
  KERCHUNK_SKIP_WITHOUT_SHARED_DATA();
  const Series& series = GetParam();
  std::string folder =
      ShellQuote((*testing::SharedDataDir() / "timeseries" / series.folder).string());
  testing::TempDir dir;
  std::string options = " -q --concat-dim " + series.concat_dim;
  if (!series.identical_dims.empty()) options += " --identical-dims " + series.identical_dims;
  if (series.overlaps_completely) {
    auto refused = RunKerchunk("scan " + folder + options + " -o " + ShellQuote(dir / "x.json"));
    EXPECT_EQ(refused.exit_code, 2) << refused.err;
    EXPECT_THAT(refused.err, ::testing::HasSubstr("adds nothing along"));
    EXPECT_FALSE(fs::exists(dir / "x.json"));
    options += " --on-overlap later";
  }
  auto full = RunKerchunk("scan " + folder + options + " -o " + ShellQuote(dir / "full.json"));
  const int n = 3;
  std::vector<testing::CommandResult> parts;
  for (int k = 0; k < n; ++k) {
    parts.push_back(RunKerchunk("scan " + folder + options + " --shard " + std::to_string(k) + "/" +
                                std::to_string(n) + " -o " +
                                ShellQuote(dir / ("part-" + std::to_string(k) + ".json"))));
  }
  bool parts_ok = std::all_of(parts.begin(), parts.end(), [](auto& r) { return r.exit_code == 0; });
  testing::CommandResult merged;
  if (parts_ok) {
    merged = RunKerchunk("combine " + ShellQuote(dir / "part-*.json") + options + " -o " +
                         ShellQuote(dir / "merged.json"));
  }
  if (!series.refusal.empty()) {
    // What one scan cannot combine, the shards must not combine either.
    RecordProperty("full_scan_error", full.err);
    EXPECT_TRUE(!parts_ok || merged.exit_code != 0) << "full scan failed: " << full.err;
    EXPECT_EQ(full.exit_code, 2) << full.err;
    EXPECT_THAT(full.err, ::testing::HasSubstr(series.refusal));
    return;
  }
  ASSERT_EQ(full.exit_code, 0) << full.err;
  ASSERT_TRUE(parts_ok) << parts[0].err << parts[1].err << parts[2].err;
  ASSERT_EQ(merged.exit_code, 0) << merged.err;
  auto a = ReadKerchunkFile(dir / "full.json");
  auto b = ReadKerchunkFile(dir / "merged.json");
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_TRUE(testing::SameReferences(*a, *b));
}

INSTANTIATE_TEST_SUITE_P(Corpus, SeriesShardTest, ::testing::ValuesIn(kSeries),
                         [](const auto& param_info) {
                           std::string name = param_info.param.folder;
                           for (char& c : name) {
                             if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
                           }
                           return name;
                         });

}  // namespace
}  // namespace kerchunk
