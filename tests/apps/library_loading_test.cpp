// The C libraries only some runs need (libhdf5, netCDF-C, libcurl, libcrypto) are loaded when a
// run first needs them, not at start (src/util/shared_library.h): a local scan and a structural
// verify load none of them; libhdf5's fallback and verify's oracles load it when used.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "apps/apps_testing.h"

namespace kerchunk::testing {
namespace {

using ::testing::Contains;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using ::testing::Not;

using CliLibraryLoadingTest = CliGuardTest;

// The optional libraries the dynamic loader opened during `args` (its LD_DEBUG=files report),
// by the name each was opened as.
std::vector<std::string> OptionalLibrariesLoaded(const std::string& args, int& exit_code) {
  const CommandResult r =
      RunCommand("LD_DEBUG=files timeout 120 " + ShellQuote(KerchunkBinary()) + " " + args);
  exit_code = r.exit_code;
  std::vector<std::string> loaded;
  for (const char* name : {"libhdf5", "libnetcdf", "libcurl", "libcrypto"}) {
    if (r.err.find(std::string("file=") + name) != std::string::npos) loaded.push_back(name);
  }
  return loaded;
}

TEST_F(CliLibraryLoadingTest, ALocalScanAndAStructuralVerifyLoadNone) {
  int code = -1;
  const std::string out = ShellQuote(Scratch("refs.json"));
  EXPECT_THAT(OptionalLibrariesLoaded("scan " + ShellQuote(Data().string()) + " -o " + out, code),
              IsEmpty());
  ASSERT_EQ(code, 0);
  EXPECT_THAT(OptionalLibrariesLoaded("verify " + out + " --quiet", code), IsEmpty());
  EXPECT_EQ(code, 0);
  EXPECT_THAT(OptionalLibrariesLoaded("pack " + out + " -o " + ShellQuote(Scratch("p")), code),
              IsEmpty());
  EXPECT_EQ(code, 0);
}

TEST_F(CliLibraryLoadingTest, LibHdf5IsLoadedWhenARunUsesIt) {
  int code = -1;
  const std::string out = ShellQuote(Scratch("refs.json"));
  const std::vector<std::string> by_library = OptionalLibrariesLoaded(
      "scan " + ShellQuote(Data().string()) + " -o " + out + " --hdf5-library", code);
  ASSERT_EQ(code, 0);
  EXPECT_THAT(by_library, Contains("libhdf5"));
  EXPECT_THAT(by_library, Not(Contains("libnetcdf")));
  const std::vector<std::string> by_oracle =
      OptionalLibrariesLoaded("verify " + out + " --source --quiet", code);
  EXPECT_EQ(code, 0);
  EXPECT_THAT(by_oracle, Contains("libhdf5"));
}

TEST_F(CliLibraryLoadingTest, LibcurlIsLoadedForARemoteFile) {
  int code = -1;
  // Nothing listens on port 1: the scan fails to connect, after loading libcurl to try.
  const std::vector<std::string> loaded = OptionalLibrariesLoaded(
      "scan http://127.0.0.1:1/a.nc -o " + ShellQuote(Scratch("r.json")), code);
  EXPECT_EQ(code, 2);
  EXPECT_THAT(loaded, Contains("libcurl"));
}

}  // namespace
}  // namespace kerchunk::testing
