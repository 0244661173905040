// The real-client test of issue #2: Debian's python3-xarray, -fsspec, -zarr and -netcdf4 open
// what `kerchunk scan` writes (single files and combined series) and read back exactly what
// netCDF4 reads from the original files (read_back.py does the comparison). Skips when
// /usr/bin/python3 lacks one of those modules.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <sstream>
#include <tuple>

#include "../scan/cli_testing.h"
#include "kerchunk/util/file_io.h"
#include "support/packed_fixtures.h"
#include "support/scan_fixtures.h"

namespace kerchunk {
namespace {

namespace fs = std::filesystem;
using testing::ShellQuote;

constexpr int kPythonSkips = 77;

struct ClientCase {
  std::string name;
  std::vector<std::string> files;  // relative to the shared data folder, or absolute
  std::string concat_dim;          // empty: one file
  std::string scan_options;
};

// Scans `files` and has Python read the result back against the originals.
void ScanAndReadBack(const std::vector<std::string>& files, const std::string& concat_dim,
                     const std::string& scan_options = "") {
  testing::TempDir dir;
  std::string refs = dir / "refs.json";
  std::string quoted_files;
  for (const auto& f : files) quoted_files += " " + ShellQuote(f);
  std::string options = " -q " + scan_options;
  // Series carry the source record with checksums: readers must open them unchanged.
  if (!concat_dim.empty()) options += " --concat-dim " + concat_dim + " --checksum";
  auto scan = testing::RunKerchunk("scan" + quoted_files + options + " -o " + ShellQuote(refs));
  ASSERT_EQ(scan.exit_code, 0) << scan.err;
  std::string command = "/usr/bin/python3 " + ShellQuote(KERCHUNK_READ_BACK_PY) + " " +
                        ShellQuote(refs) + quoted_files;
  if (!concat_dim.empty()) command += " --concat-dim " + concat_dim;
  auto read = testing::RunCommand(command);
  if (read.exit_code == kPythonSkips) GTEST_SKIP() << read.out;
  EXPECT_EQ(read.exit_code, 0) << read.out << read.err;
  std::printf("%s", read.out.c_str());
}

// The comparison can fail: swapping the references of two chunks of "tas" is noticed.
TEST(ReadBackTest, NoticesSwappedChunks) {
  testing::TempDir dir;
  testing::SeriesSpec spec;
  spec.files = 1;
  auto paths = testing::WriteSeries(dir.path(), spec);
  ASSERT_TRUE(paths.ok());
  std::string refs = dir / "refs.json";
  auto scan =
      testing::RunKerchunk("scan -q " + ShellQuote(paths->front()) + " -o " + ShellQuote(refs));
  ASSERT_EQ(scan.exit_code, 0) << scan.err;
  // One key per line: swap the values of tas/0.0.0 and tas/0.0.1.
  auto text = ReadFileToString(refs);
  ASSERT_TRUE(text.ok());
  std::vector<std::string> lines;
  std::istringstream in(*text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  auto find = [&](const std::string& key) {
    return std::find_if(lines.begin(), lines.end(),
                        [&](const std::string& l) { return l.starts_with("\"" + key + "\":"); });
  };
  auto a = find("tas/0.0.0"), b = find("tas/0.0.1");
  ASSERT_TRUE(a != lines.end() && b != lines.end());
  std::string value_a = a->substr(a->find(':')), value_b = b->substr(b->find(':'));
  *a = a->substr(0, a->find(':')) + value_b;
  *b = b->substr(0, b->find(':')) + value_a;
  std::string swapped;
  for (const auto& line : lines) swapped += line + "\n";
  ASSERT_TRUE(WriteFileAtomically(refs, swapped).ok());
  auto read = testing::RunCommand("/usr/bin/python3 " + ShellQuote(KERCHUNK_READ_BACK_PY) + " " +
                                  ShellQuote(refs) + " " + ShellQuote(paths->front()));
  if (read.exit_code == kPythonSkips) GTEST_SKIP() << read.out;
  EXPECT_EQ(read.exit_code, 1) << read.out << read.err;
  EXPECT_NE(read.out.find("variable tas: values differ"), std::string::npos) << read.out;
}

class GeneratedClientTest : public ::testing::Test {
 protected:
  std::vector<std::string> Series(testing::SeriesSpec spec) {
    auto paths = testing::WriteSeries(dir_.path(), spec);
    EXPECT_TRUE(paths.ok()) << paths.status().message();
    return paths.ok() ? *paths : std::vector<std::string>{};
  }
  testing::TempDir dir_;
};

TEST_F(GeneratedClientTest, SingleNetcdf4File) {
  testing::SeriesSpec spec;
  spec.files = 1;
  ScanAndReadBack(Series(spec), "");
}

TEST_F(GeneratedClientTest, SingleNetcdf3File) {
  testing::SeriesSpec spec;
  spec.files = 1;
  spec.netcdf4 = false;
  ScanAndReadBack(Series(spec), "");
}

TEST_F(GeneratedClientTest, CombinedNetcdf4Series) {
  testing::SeriesSpec spec;
  spec.files = 4;
  ScanAndReadBack(Series(spec), "time");
}

TEST_F(GeneratedClientTest, CombinedNetcdf3Series) {
  testing::SeriesSpec spec;
  spec.files = 3;
  spec.netcdf4 = false;
  ScanAndReadBack(Series(spec), "time");
}

// Files that count time from their own dates, with time bounds: combine converts both "time" and
// "time_bnds" to the first file's units; xarray's cftime dates must be netCDF4's.
TEST_F(GeneratedClientTest, CombinedSeriesWithConvertedTimeBounds) {
  for (bool bounds_units : {false, true}) {
    testing::PackedSeriesSpec spec;
    spec.prefix = bounds_units ? "own_units" : "inherited_units";
    spec.per_file_units = true;
    spec.bounds = true;
    spec.bounds_units = bounds_units;
    auto paths = testing::WritePackedSeries(dir_.path(), spec);
    ASSERT_TRUE(paths.ok()) << paths.status().message();
    ScanAndReadBack(*paths, "time");
  }
}

// An ensemble combined along a new dimension: each member, read through fsspec + zarr + xarray
// as ds.isel(member=i), equals netCDF4's reading of its own files, and "member" holds each
// file's variant_label. `files` is member-major, `per_member` files each.
void ScanEnsembleAndReadBack(const std::vector<std::string>& files, int per_member,
                             const std::string& scan_options) {
  testing::TempDir dir;
  std::string refs = dir / "ens.json";
  std::string quoted_files;
  for (const auto& f : files) quoted_files += " " + ShellQuote(f);
  auto scan = testing::RunKerchunk("scan -q" + quoted_files + " " + scan_options + " -o " +
                                   ShellQuote(refs));
  ASSERT_EQ(scan.exit_code, 0) << scan.err;
  auto read = testing::RunCommand("/usr/bin/python3 " + ShellQuote(KERCHUNK_READ_BACK_PY) + " " +
                                  ShellQuote(refs) + quoted_files +
                                  " --new-dim member --member-attr variant_label --per-member " +
                                  std::to_string(per_member));
  if (read.exit_code == kPythonSkips) GTEST_SKIP() << read.out;
  EXPECT_EQ(read.exit_code, 0) << read.out << read.err;
  std::printf("%s", read.out.c_str());
}

std::vector<std::string> WriteEnsemble(const fs::path& dir, int members, int files) {
  std::vector<std::string> all;
  for (int m = 0; m < members; ++m) {
    testing::SeriesSpec spec;
    spec.prefix = fmt::format("tas_r{}i1p1f1", m + 1);
    spec.files = files;
    spec.member = m;
    spec.variant_label = true;
    auto paths = testing::WriteSeries(dir, spec);
    EXPECT_TRUE(paths.ok()) << paths.status().message();
    if (paths.ok()) all.insert(all.end(), paths->begin(), paths->end());
  }
  return all;
}

TEST_F(GeneratedClientTest, EnsembleAlongANewMemberDimension) {
  auto files = WriteEnsemble(dir_.path(), 4, 1);
  ScanEnsembleAndReadBack(files, 1, "--concat-dim member --coord member=attr:variant_label");
  ScanEnsembleAndReadBack(files, 1, "--concat-dim member --coord 'member=path:_(r[0-9]i1p1f1)_'");
}

TEST_F(GeneratedClientTest, EnsembleOfTimeSeries) {
  auto files = WriteEnsemble(dir_.path(), 2, 3);
  ScanEnsembleAndReadBack(
      files, 3, "--concat-dim member --concat-dim time --coord member=attr:variant_label");
}

// Two runs sharing a boundary step, read back against netCDF4's reading of the files with the
// shared step taken from the file --on-overlap names (later by default, earlier when asked).
// The same files with the shared step taken from the other file must not compare equal: the
// two files hold different values there.
TEST_F(GeneratedClientTest, PartialOverlapFollowsOnOverlap) {
  testing::SeriesSpec a;
  a.prefix = "run";
  a.files = 1;
  testing::SeriesSpec b = a;
  b.first_file = 1;
  b.time_shift = -1;
  std::vector<std::string> files = Series(a);
  std::vector<std::string> more = Series(b);
  files.insert(files.end(), more.begin(), more.end());
  std::string quoted;
  for (const auto& f : files) quoted += " " + ShellQuote(f);
  for (const auto& [option, keep, other] :
       {std::tuple{"", "last", "first"}, std::tuple{"--on-overlap earlier", "first", "last"}}) {
    std::string refs = dir_ / "overlap.json";
    auto scan = testing::RunKerchunk("scan -q" + quoted + " " + option + " -o " + ShellQuote(refs));
    ASSERT_EQ(scan.exit_code, 0) << scan.err;
    std::string read_back = "/usr/bin/python3 " + ShellQuote(KERCHUNK_READ_BACK_PY) + " " +
                            ShellQuote(refs) + quoted + " --concat-dim time --keep ";
    auto read = testing::RunCommand(read_back + keep);
    if (read.exit_code == kPythonSkips) GTEST_SKIP() << read.out;
    EXPECT_EQ(read.exit_code, 0) << option << ": " << read.out << read.err;
    auto wrong = testing::RunCommand(read_back + other);
    EXPECT_EQ(wrong.exit_code, 1) << option << ": " << wrong.out << wrong.err;
  }
}

TEST_F(GeneratedClientTest, CommittedSamples) {
  fs::path samples = KERCHUNK_SAMPLES_DIR;
  ScanAndReadBack(
      {(samples / "daily_20200101.nc").string(), (samples / "daily_20200102.nc").string(),
       (samples / "daily_20200103.nc").string()},
      "time");
  ScanAndReadBack({(samples / "records_nc3.nc").string()}, "");
}

class SharedClientTest : public ::testing::TestWithParam<ClientCase> {};

void PrintTo(const ClientCase& c, std::ostream* os) { *os << c.name; }

// The files of a case (a folder stands for the files in it), scanned and read back.
void ReadBackSharedCase(const ClientCase& c) {
  KERCHUNK_SKIP_WITHOUT_SHARED_DATA();
  std::vector<std::string> files;
  for (const auto& f : c.files) {
    fs::path p = *testing::SharedDataDir() / f;
    if (fs::is_directory(p)) {
      for (const auto& e : fs::directory_iterator(p)) files.push_back(e.path().string());
    } else {
      files.push_back(p.string());
    }
  }
  std::sort(files.begin(), files.end());
  ScanAndReadBack(files, c.concat_dim, c.scan_options);
}

TEST_P(SharedClientTest, ReadsBackTheOriginalValues) { ReadBackSharedCase(GetParam()); }

// Real files from ../shared/data: NetCDF-4 from several producers (chunked, compressed,
// contiguous, variable-length strings), NetCDF-3 classic and 64-bit offset, and combined series
// of both formats (CMIP5/CMIP6, different time units per file, contiguous NetCDF-4).
const ClientCase kSharedCases[] = {
    {"nc4_rotated_pole", {"real_netcdf4/iris-sample-data/rotated_pole.nc"}, "", ""},
    {"nc4_hybrid_height", {"real_netcdf4/iris-sample-data/hybrid_height.nc"}, "", ""},
    {"nc4_ostia", {"real_netcdf4/iris-sample-data/ostia_monthly.nc"}, "", ""},
    {"nc4_vlstr", {"real_netcdf4/iris-sample-data/vlstr_type.nc"}, "", ""},
    {"nc4_orca2", {"real_netcdf4/iris-sample-data/orca2_votemper.nc"}, "", ""},
    {"nc4_basin_mask", {"real_netcdf4/xarray-data/basin_mask.nc"}, "", ""},
    {"nc4_chlor_a", {"real_netcdf4/ncmeta/S2008001.L3m_DAY_CHL_chlor_a_9km.nc"}, "", ""},
    {"nc4_cloud_top", {"real_netcdf4/netcdf4-python/20171025_2056.Cloud_Top_Height.nc"}, "", ""},
    {"nc4_ukesm",
     {"real_netcdf4/pyfive/noy_AERmonZ_UKESM1-0-LL_piControl_r1i1p1f2_gnz_200001-200012.nc"},
     "",
     ""},
    {"nc3_nctest_classic", {"netcdf3/netcdf-c/ref_nctest_classic.nc"}, "", ""},
    {"nc3_nctest_64bit_offset", {"netcdf3/netcdf-c/ref_nctest_64bit_offset.nc"}, "", ""},
    {"nc3_eraint_uvz", {"netcdf3/xarray-data/eraint_uvz.nc"}, "", ""},
    {"nc3_stars_reduced", {"netcdf3/stars/reduced.nc"}, "", ""},
    {"nc3_madis_sao", {"netcdf3/netcdfjs/madis-sao.nc"}, "", ""},
    {"series_nc4_cmip6_rlds", {"timeseries/nc4_cmip6_rlds_INM-CM5-0_mon_2files"}, "time", ""},
    {"series_nc4_cmip6_siconc", {"timeseries/nc4_cmip6_siconc_GFDL-ESM4_mon_2files"}, "time", ""},
    {"series_nc4_contiguous_rain", {"timeseries/nc4_contiguous_padocc_rain_5files"}, "time", ""},
    {"series_nc3_cmip5_mrsos", {"timeseries/nc3_cmip5_mrsos_HadGEM2-ES_day_11files"}, "time", ""},
    {"series_nc3_cmip5_tas", {"timeseries/nc3_cmip5_tas_EC-EARTH_mon_16files"}, "time", ""},
};

INSTANTIATE_TEST_SUITE_P(Corpus, SharedClientTest, ::testing::ValuesIn(kSharedCases),
                         [](const auto& param_info) { return param_info.param.name; });

// Known differences, outside this component, that a reader sees (disabled until fixed; run
// with --gtest_also_run_disabled_tests):
//  - gridmet: datasets whose contiguous storage was never written (crs, day, lat, lon) are left
//    out, as kerchunk 0.2.2 does; netCDF4 reads them as fill values.
//  - cordex, MPI siconc: a char variable without _FillValue gets zarr fill_value " " (kerchunk
//    0.2.2 does the same), which xarray turns into a _FillValue and an object dtype.
class KnownIssueClientTest : public ::testing::TestWithParam<ClientCase> {};
TEST_P(KnownIssueClientTest, DISABLED_ReadsBackTheOriginalValues) {
  ReadBackSharedCase(GetParam());
}
const ClientCase kKnownIssueCases[] = {
    {"nc4_gridmet", {"real_netcdf4/ncmeta/gridmet_sample.nc"}, "", ""},
    {"series_nc4_cordex_pr", {"timeseries/nc4_cordex_pr_NAM-22_day_2files"}, "time", ""},
    {"series_nc4_siconc_mpi",
     {"timeseries/nc4_cmip6_siconc_MPI-ESM1-2-HR_mon_33files"},
     "time",
     ""},
};
INSTANTIATE_TEST_SUITE_P(Corpus, KnownIssueClientTest, ::testing::ValuesIn(kKnownIssueCases),
                         [](const auto& param_info) { return param_info.param.name; });

}  // namespace
}  // namespace kerchunk
