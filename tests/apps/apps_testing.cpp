#include "apps/apps_testing.h"

#include <fmt/format.h>

#include <functional>

#include "kerchunk/util/file_io.h"
#include "support/scan_fixtures.h"

namespace kerchunk::testing {

namespace fs = std::filesystem;

Fingerprint FingerprintOf(const std::string& path) {
  Result<std::string> bytes = ReadFileToString(path);
  if (!bytes.ok()) return {};
  return {bytes->size(), std::hash<std::string>{}(*bytes)};
}

std::vector<std::string> TempFilesIn(const fs::path& dir) {
  std::vector<std::string> found;
  for (const auto& e : fs::recursive_directory_iterator(dir)) {
    if (e.path().filename().string().find(".tmp.") != std::string::npos) {
      found.push_back(e.path().string());
    }
  }
  return found;
}

TempDir* CliGuardTest::suite_dir_ = nullptr;

void CliGuardTest::SetUpTestSuite() {
  suite_dir_ = new TempDir();
  fs::create_directories(Data());
  Result<std::vector<std::string>> files = WriteSeries(Data(), SeriesSpec{});
  ASSERT_TRUE(files.ok()) << files.status().message();
  CommandResult scan =
      RunKerchunk("scan -q " + ShellQuote(Data().string()) + " -o " + ShellQuote(Refs()));
  ASSERT_EQ(scan.exit_code, 0) << scan.err;
}

void CliGuardTest::TearDownTestSuite() {
  delete suite_dir_;
  suite_dir_ = nullptr;
}

std::string CliGuardTest::Series(int i) {
  return (Data() / fmt::format("day_{:03}.nc", i)).string();
}

::testing::AssertionResult CliGuardTest::FailsWith(const CommandResult& r,
                                                   const std::string& command,
                                                   const std::string& message) const {
  const std::string expected = "kerchunk " + command + ": error: " + message + "\n";
  if (r.exit_code != 2 || r.err != expected || !r.out.empty()) {
    return ::testing::AssertionFailure() << "exit status " << r.exit_code << "\nstderr: " << r.err
                                         << "expected: " << expected << "stdout: " << r.out;
  }
  for (const fs::path& dir : {tmp_.path(), suite_dir_->path()}) {
    std::vector<std::string> left = TempFilesIn(dir);
    if (!left.empty()) return ::testing::AssertionFailure() << "left behind: " << left.front();
  }
  return ::testing::AssertionSuccess();
}

}  // namespace kerchunk::testing
