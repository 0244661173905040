// Real-client check (label client): references written by ScanHdf5File + WriteKerchunkFile for
// the generated fixture and several corpus files are opened by fsspec + zarr + xarray
// (client_check.py, run with /usr/bin/python3) and compared with h5py and netCDF4 readings of
// the originals. Skips when that Python stack is missing.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "hdf5_translate/translator_fixture.h"
#include "kerchunk/json/kerchunk_json.h"
#include "support/hdf5_structured_fixtures.h"

#ifndef KERCHUNK_CLIENT_CHECK_SCRIPT
#error "KERCHUNK_CLIENT_CHECK_SCRIPT must name client_check.py"
#endif

namespace kerchunk::testing {
namespace {

// Translates `path` with absolute-path URLs and writes the references into `dir`.
std::string WriteReferences(const std::string& path, const TempDir& dir, const std::string& name) {
  FileScanOptions options;
  options.on_unsupported = OnUnsupported::kSkip;
  auto result = ScanHdf5File(path, path, options);
  EXPECT_TRUE(result.ok()) << result.status().ToString();
  const std::string out = dir / (name + ".json");
  if (result.ok()) {
    EXPECT_TRUE(WriteKerchunkFile(result->refs, out).ok());
  }
  return out;
}

TEST(TranslatorClient, XarrayReadsWhatTheOriginalsHold) {
  if (!std::filesystem::exists("/usr/bin/python3")) GTEST_SKIP() << "no /usr/bin/python3";
  TempDir dir;
  std::vector<std::string> pairs;
  const TranslatedFixture& fixture = Translated();
  pairs.push_back(fixture.path);
  pairs.push_back(WriteReferences(fixture.path, dir, "fixture"));
  auto structured = WriteStructuredFixture(dir.path());
  ASSERT_TRUE(structured.ok()) << structured.status().ToString();
  pairs.push_back(*structured);
  pairs.push_back(WriteReferences(*structured, dir, "structured"));
  if (SharedDataDir()) {
    int n = 0;
    for (const char* rel :
         {"types_layouts/kerchunk/air.nc", "real_netcdf4/iris-sample-data/vlstr_type.nc",
          "real_netcdf4/netcdf4-python/issue672.nc", "real_netcdf4/geocat/nc4uvt.nc",
          "index_types/jhdf/chunked_v4_datasets.hdf5",
          "index_types/jhdf/fletcher32_datasets_latest.hdf5", "index_types/hdf5/tdset2.h5",
          "timeseries/nc4_opendrift_Nordic_ROMS_3days/Nordic_subset_day1.nc",
          "filters/hdf5_plugins/h5ex_d_blosc.h5", "filters/hdf5_plugins/h5ex_d_zstd.h5",
          // Compound tables as structured dtypes: little- and big-endian, nested, sub-arrays.
          "types_layouts/kerchunk/NEONDSTowerTemperatureData.hdf5",
          "real_netcdf4/ncmeta/S2008001.L3b_DAY_CHL.nc", "types_layouts/hdf5/tsaf.h5",
          "index_types/hdf5/test_ld.h5", "types_layouts/h5py/compound-dtype-complex.h5"}) {
      const std::string path = (*SharedDataDir() / rel).string();
      pairs.push_back(path);
      pairs.push_back(WriteReferences(path, dir, "corpus" + std::to_string(n++)));
    }
  }
  std::string command = "/usr/bin/python3 " + ShellQuote(KERCHUNK_CLIENT_CHECK_SCRIPT);
  for (const std::string& p : pairs) command += " " + ShellQuote(p);
  const CommandResult r = RunCommand(command);
  if (r.exit_code == 77) GTEST_SKIP() << r.out;
  EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
  std::printf("%s", r.out.c_str());
}

}  // namespace
}  // namespace kerchunk::testing
