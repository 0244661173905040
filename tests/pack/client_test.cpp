// A real client reads what `kerchunk unpack` writes: Debian's python3 with fsspec's
// ReferenceFileSystem, zarr and xarray opens the unpacked form of Python kerchunk's own index
// files (URLs made absolute), and every array reads the same values as through the original.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "kerchunk/json/kerchunk_json.h"
#include "pack_testing.h"
#include "support/test_env.h"

namespace kerchunk::pack {
namespace {

using kerchunk::testing::RunCommand;
using kerchunk::testing::ShellQuote;

constexpr const char* kPython = "/usr/bin/python3";

// Opens both reference files and compares every array (zarr) and the dataset (xarray).
constexpr const char* kCompareScript = R"(
import sys, numpy as np, fsspec, zarr, xarray as xr
def store(path):
    fs = fsspec.filesystem("reference", fo=path, remote_protocol="file")
    return fs.get_mapper("")
a, b = zarr.open_group(store(sys.argv[1]), mode="r"), zarr.open_group(store(sys.argv[2]), mode="r")
names = []
a.visititems(lambda name, obj: names.append(name) if isinstance(obj, zarr.Array) else None)
for name in names:
    x, y = a[name][...], b[name][...]
    assert x.dtype == y.dtype and x.shape == y.shape, name
    assert np.array_equal(x, y, equal_nan=x.dtype.kind in "fc"), name
if sys.argv[3] == "xarray":
    ds = xr.open_dataset("reference://", engine="zarr", backend_kwargs={"consolidated": False,
        "storage_options": {"fo": sys.argv[2], "remote_protocol": "file"}})
    ds.load()
    print("dataset", dict(ds.sizes))
print("arrays", len(names))
)";

bool PythonStackAvailable() {
  return RunCommand(std::string(kPython) + " -c 'import xarray, zarr, fsspec'").exit_code == 0;
}

class PackClientTest : public ::testing::TestWithParam<std::pair<std::string, std::string>> {};

TEST_P(PackClientTest, UnpackedFileReadsTheSameValues) {
  KERCHUNK_SKIP_WITHOUT_SHARED_DATA();
  if (!PythonStackAvailable()) GTEST_SKIP() << "no python3 with xarray, zarr and fsspec";
  auto [relative, mode] = GetParam();
  auto source = kerchunk::testing::ExpectedDir();
  ASSERT_TRUE(source);
  auto refs = ReadKerchunkFile((*source / relative).string());
  ASSERT_TRUE(refs.ok()) << refs.status().message();
  // Python kerchunk wrote URLs relative to ../shared ("data/..."): make them absolute.
  const std::string shared = kerchunk::testing::SharedDir()->string();
  for (uint32_t id = 0; id < refs->urls.size(); ++id) {
    ASSERT_TRUE(refs->urls.Rename(id, shared + "/" + refs->urls[id]).ok());
  }
  kerchunk::testing::TempDir tmp;
  std::string original = tmp / "original.json", packed = tmp / "packed.json",
              unpacked = tmp / "unpacked.json", script = tmp / "compare.py";
  ASSERT_TRUE(WriteKerchunkFile(*refs, original).ok());
  std::ofstream(script) << kCompareScript;
  const std::string bin = ShellQuote(kerchunk::testing::KerchunkBinary());
  auto p = RunCommand(bin + " pack -q " + ShellQuote(original) + " -o " + ShellQuote(packed));
  ASSERT_EQ(p.exit_code, 0) << p.err;
  auto u = RunCommand(bin + " unpack " + ShellQuote(packed) + " -o " + ShellQuote(unpacked));
  ASSERT_EQ(u.exit_code, 0) << u.err;
  auto r = RunCommand(std::string(kPython) + " " + ShellQuote(script) + " " + ShellQuote(original) +
                      " " + ShellQuote(unpacked) + " " + mode);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, ::testing::HasSubstr("arrays"));
}

INSTANTIATE_TEST_SUITE_P(
    Expected, PackClientTest,
    ::testing::Values(
        // 14,436 byte-range chunks in 6 arrays, packed into generators
        std::pair<std::string, std::string>(
            "data/index_types/jhdf/fixed_array_paged_datasets.hdf5.json", "zarr"),
        // a 33-file time series opened as an xarray dataset
        std::pair<std::string, std::string>(
            "data/timeseries/nc4_cmip6_siconc_MPI-ESM1-2-HR_mon_33files.combined.json", "xarray"),
        std::pair<std::string, std::string>("data/real_netcdf4/ncmeta/"
                                            "S2008001.L3m_DAY_CHL_chlor_a_9km.nc.json",
                                            "xarray")),
    [](const auto& param_info) { return "case" + std::to_string(param_info.index); });

}  // namespace
}  // namespace kerchunk::pack
