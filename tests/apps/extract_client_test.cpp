// `kerchunk unpack --select ... --metadata` writes an extract that opens alone in xarray (its
// help says so): the dimension coordinates come whole, and the selected values equal what
// netCDF4 reads from the original files. Debian's python3 with xarray, zarr, fsspec and netCDF4
// reads it; the test skips without them.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>

#include "apps/apps_testing.h"

namespace kerchunk::testing {
namespace {

using ::testing::HasSubstr;

constexpr const char* kPython = "/usr/bin/python3";

// argv: extract, numpy index of the selection, the original files in order.
constexpr const char* kCompareScript = R"(
import sys, numpy as np, xarray as xr, netCDF4
refs, index, files = sys.argv[1], sys.argv[2], sys.argv[3:]
ds = xr.open_dataset("reference://", engine="zarr", mask_and_scale=False, decode_times=False,
    backend_kwargs={"consolidated": False,
                    "storage_options": {"fo": refs, "remote_protocol": "file"}})
def read(name):
    parts = []
    for f in files:
        with netCDF4.Dataset(f) as nc:
            nc.set_auto_maskandscale(False)
            parts.append(nc[name][...])
    return parts
key = eval("np.s_[" + index + "]")
tas = np.concatenate(read("tas"))
assert np.array_equal(ds["tas"][key].values, tas[key]), "tas"  # only the selection is read
assert np.array_equal(ds["time"].values, np.concatenate(read("time"))), "time"
for name in ("lat", "lon"):
    assert np.array_equal(ds[name].values, read(name)[0]), name
print("OK", dict(ds.sizes))
)";

class CliExtractClientTest : public CliGuardTest {};

TEST_F(CliExtractClientTest, SelectionWithMetadataOpensInXarrayWithTheSameValues) {
  if (RunCommand(std::string(kPython) + " -c 'import xarray, zarr, fsspec, netCDF4'").exit_code !=
      0) {
    GTEST_SKIP() << "no python3 with xarray, zarr, fsspec and netCDF4";
  }
  const std::string packed = Scratch("refs.packed.json");
  ASSERT_EQ(RunKerchunk("pack -q " + ShellQuote(Refs()) + " -o " + ShellQuote(packed)).exit_code,
            0);
  const std::string files =
      ShellQuote(Series(0)) + " " + ShellQuote(Series(1)) + " " + ShellQuote(Series(2));
  for (const auto& [selection, index] : {std::pair<std::string, std::string>{"tas[-1]", "-1"},
                                         {"tas[2:7, 1:3]", "2:7, 1:3"},
                                         {"tas[5, :, 4:]", "5, :, 4:"}}) {
    const std::string extract = Scratch("extract.json");
    auto unpack = RunKerchunk("unpack " + ShellQuote(packed) + " --select " +
                              ShellQuote(selection) + " --metadata -o " + ShellQuote(extract));
    ASSERT_EQ(unpack.exit_code, 0) << unpack.err;
    auto read = RunCommand(std::string(kPython) + " -c " + ShellQuote(kCompareScript) + " " +
                           ShellQuote(extract) + " " + ShellQuote(index) + " " + files);
    EXPECT_EQ(read.exit_code, 0) << selection << "\n" << read.out << read.err;
    EXPECT_THAT(read.out, HasSubstr("OK")) << selection;
  }
}

// A real rotated-pole CORDEX series: 2-D lat/lon named by "coordinates", rotated_pole by
// "grid_mapping", time_bnds decoded as times on open (its first element is read).
constexpr const char* kCordexScript = R"(
import sys, glob, numpy as np, xarray as xr, netCDF4
refs, folder = sys.argv[1], sys.argv[2]
ds = xr.open_dataset("reference://", engine="zarr", mask_and_scale=False,
    backend_kwargs={"consolidated": False,
                    "storage_options": {"fo": refs, "remote_protocol": "file"}})
with netCDF4.Dataset(sorted(glob.glob(folder + "/*.nc"))[-1]) as nc:
    nc.set_auto_maskandscale(False)
    assert np.array_equal(ds["pr"][-1].values, nc["pr"][-1]), "pr"
    for name in ("lat", "lon", "rlat", "rlon"):
        assert np.array_equal(ds[name].values, nc[name][...]), name
print("OK", dict(ds.sizes))
)";

TEST_F(CliExtractClientTest, RotatedPoleCordexExtractOpensInXarray) {
  KERCHUNK_SKIP_WITHOUT_SHARED_DATA();
  if (RunCommand(std::string(kPython) + " -c 'import xarray, zarr, fsspec, netCDF4'").exit_code !=
      0) {
    GTEST_SKIP() << "no python3 with xarray, zarr, fsspec and netCDF4";
  }
  const std::string folder =
      (*SharedDataDir() / "timeseries" / "nc4_cordex_pr_NAM-22_day_2files").string();
  if (!std::filesystem::is_directory(folder)) GTEST_SKIP() << "no " << folder;
  const std::string refs = Scratch("cordex.json"), packed = Scratch("cordex.packed.json");
  const std::string extract = Scratch("last.json");
  ASSERT_EQ(RunKerchunk("scan -q " + ShellQuote(folder) + " -o " + ShellQuote(refs)).exit_code, 0);
  ASSERT_EQ(RunKerchunk("pack -q " + ShellQuote(refs) + " -o " + ShellQuote(packed)).exit_code, 0);
  auto unpack = RunKerchunk("unpack " + ShellQuote(packed) + " --select 'pr[-1]' --metadata -o " +
                            ShellQuote(extract));
  ASSERT_EQ(unpack.exit_code, 0) << unpack.err;
  auto read = RunCommand(std::string(kPython) + " -c " + ShellQuote(kCordexScript) + " " +
                         ShellQuote(extract) + " " + ShellQuote(folder));
  EXPECT_EQ(read.exit_code, 0) << read.out << read.err;
  EXPECT_THAT(read.out, HasSubstr("OK"));
}

}  // namespace
}  // namespace kerchunk::testing
