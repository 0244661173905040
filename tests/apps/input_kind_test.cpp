// The wrong kind of input is named for what it is: a data file given to a command that reads
// reference indexes ("this is a data file, not a reference index; run kerchunk scan first",
// HDF5 found at 0 or after a user block, NetCDF-3 by "CDF\x01/\x02/\x05"), and a packed file
// given to pack, combine or bench ("already packed").
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "apps/apps_testing.h"
#include "kerchunk/util/file_io.h"
#include "support/scan_fixtures.h"

namespace kerchunk::testing {
namespace {

namespace fs = std::filesystem;

using CliInputKindTest = CliGuardTest;

std::string DataFileMessage(const std::string& path) {
  return path + ": this is a data file, not a reference index; run kerchunk scan first";
}

std::string PackedMessage(const std::string& path) {
  return path +
         ": already packed; give the Kerchunk JSON it was packed from (kerchunk unpack writes it)";
}

TEST_F(CliInputKindTest, DataFilesAreNamedAsSuch) {
  // NetCDF-4 (HDF5 at 0), the same bytes after a 512-byte user block, and NetCDF-3.
  const std::string nc4 = Series(0);
  const std::string user_block = Scratch("user_block.h5");
  std::ofstream(user_block, std::ios::binary) << std::string(512, '\0') << *ReadFileToString(nc4);
  SeriesSpec classic;
  classic.netcdf4 = false;
  classic.files = 1;
  auto nc3 = WriteSeries(tmp_.path(), classic);
  ASSERT_TRUE(nc3.ok()) << nc3.status().message();
  const std::string out = ShellQuote(Scratch("out.json"));
  for (const std::string& data : {nc4, user_block, nc3->front()}) {
    const Fingerprint before = FingerprintOf(data);
    const std::string d = ShellQuote(data);
    EXPECT_TRUE(FailsWith(RunKerchunk("verify " + d), "verify", DataFileMessage(data)));
    EXPECT_TRUE(FailsWith(RunKerchunk("verify " + ShellQuote(Refs()) + " --against " + d), "verify",
                          DataFileMessage(data)));
    EXPECT_TRUE(FailsWith(RunKerchunk("pack " + d + " -o " + out), "pack", DataFileMessage(data)));
    EXPECT_TRUE(
        FailsWith(RunKerchunk("unpack " + d + " -o " + out), "unpack", DataFileMessage(data)));
    EXPECT_TRUE(FailsWith(RunKerchunk("combine " + ShellQuote(Refs()) + " " + d + " -o " + out),
                          "combine", DataFileMessage(data)));
    EXPECT_EQ(FingerprintOf(data), before);
  }
  EXPECT_FALSE(fs::exists(Scratch("out.json")));
}

TEST_F(CliInputKindTest, PackedFilesAreAlreadyPacked) {
  const std::string packed = Scratch("refs.packed.json");
  ASSERT_EQ(RunKerchunk("pack -q " + ShellQuote(Refs()) + " -o " + ShellQuote(packed)).exit_code,
            0);
  const Fingerprint before = FingerprintOf(packed);
  const std::string p = ShellQuote(packed), out = ShellQuote(Scratch("out.json"));
  EXPECT_TRUE(FailsWith(RunKerchunk("pack " + p + " -o " + out), "pack", PackedMessage(packed)));
  EXPECT_TRUE(FailsWith(RunKerchunk("bench -q " + p), "bench", PackedMessage(packed)));
  EXPECT_TRUE(FailsWith(RunKerchunk("combine " + ShellQuote(Refs()) + " " + p + " -o " + out),
                        "combine", PackedMessage(packed)));
  auto verify = RunKerchunk("verify -q " + p);  // verify reads packed files
  EXPECT_EQ(verify.exit_code, 0) << verify.out << verify.err;
  EXPECT_EQ(FingerprintOf(packed), before);
  EXPECT_FALSE(fs::exists(Scratch("out.json")));
}

}  // namespace
}  // namespace kerchunk::testing
