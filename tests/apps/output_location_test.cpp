// Outputs that cannot be written, and a missing Python kerchunk for bench --compare-python, are
// reported before the work (a long verify or bench used to run every step, print its results,
// then fail), naming the path the user gave, never the temporary file's name.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>

#include "apps/apps_testing.h"

namespace kerchunk::testing {
namespace {

namespace fs = std::filesystem;
using ::testing::IsEmpty;

using CliOutputLocationTest = CliGuardTest;

TEST_F(CliOutputLocationTest, MissingFolderIsReportedBeforeTheWork) {
  const std::string missing = Scratch("missing/dir");
  const std::string refs = ShellQuote(Refs()), in = ShellQuote(Series(0));
  const Fingerprint before = FingerprintOf(Refs());
  // Without -q: a verify that ran would print its report, a scan its summary.
  EXPECT_TRUE(FailsWith(RunKerchunk("verify " + refs + " --junit " + missing + "/v.xml"), "verify",
                        "--junit " + missing + "/v.xml: folder " + missing + " does not exist"));
  EXPECT_TRUE(FailsWith(RunKerchunk("scan " + in + " -o " + missing + "/x.json"), "scan",
                        "-o " + missing + "/x.json: folder " + missing + " does not exist"));
  EXPECT_TRUE(FailsWith(RunKerchunk("combine " + refs + " -o " + missing + "/x.json"), "combine",
                        "-o " + missing + "/x.json: folder " + missing + " does not exist"));
  EXPECT_TRUE(FailsWith(RunKerchunk("pack " + refs + " -o " + missing + "/x.json"), "pack",
                        "-o " + missing + "/x.json: folder " + missing + " does not exist"));
  EXPECT_TRUE(FailsWith(RunKerchunk("bench " + refs + " --json " + missing + "/b.json"), "bench",
                        "--json " + missing + "/b.json: folder " + missing + " does not exist"));
  EXPECT_TRUE(
      FailsWith(RunKerchunk("bench --synthetic 2x2 --scale 10 --plot " + missing + "/p.svg"),
                "bench", "--plot " + missing + "/p.svg: folder " + missing + " does not exist"));
  EXPECT_EQ(FingerprintOf(Refs()), before);
  EXPECT_THAT(FilesIn(tmp_.path()), IsEmpty());
}

TEST_F(CliOutputLocationTest, FolderOrFileInTheWayIsNamed) {
  const std::string refs = ShellQuote(Refs());
  EXPECT_TRUE(FailsWith(RunKerchunk("pack " + refs + " -o " + ShellQuote(tmp_.path().string())),
                        "pack", "-o " + tmp_.path().string() + ": is a folder; give a file name"));
  const std::string file = Scratch("plain.txt");
  { std::ofstream(file) << "x"; }
  EXPECT_TRUE(FailsWith(RunKerchunk("verify " + refs + " --junit " + file + "/v.xml"), "verify",
                        "--junit " + file + "/v.xml: " + file + " is not a folder"));
}

TEST_F(CliOutputLocationTest, ReadOnlyFolderIsNamed) {
  if (::geteuid() == 0) GTEST_SKIP() << "root writes into read-only folders";
  const fs::path locked = tmp_.path() / "locked";
  fs::create_directories(locked);
  fs::permissions(locked, fs::perms::owner_read | fs::perms::owner_exec);
  auto r = RunKerchunk("unpack x.json -o " + (locked / "x.json").string());
  fs::permissions(locked, fs::perms::owner_all);
  EXPECT_TRUE(FailsWith(
      r, "unpack",
      "-o " + (locked / "x.json").string() + ": folder " + locked.string() + " is not writable"));
}

TEST_F(CliOutputLocationTest, MissingPythonKerchunkIsReportedBeforeTheCxxSteps) {
  // Without -q every C++ step would print a progress line before Python ran.
  auto r = RunKerchunk("bench " + ShellQuote(Data().string()) + " --compare-python " +
                       ShellQuote(Scratch("no-kerchunk-here")) + " --python /usr/bin/python3");
  if (r.exit_code == 0) GTEST_SKIP() << "Python kerchunk importable from an installed package";
  EXPECT_TRUE(FailsWith(r, "bench",
                        "--compare-python: Python kerchunk is not importable with /usr/bin/python3 "
                        "(kerchunk path: " +
                            Scratch("no-kerchunk-here") +
                            "): ModuleNotFoundError: No module named 'kerchunk'. Give a kerchunk "
                            "checkout with --compare-python DIR or KERCHUNK_PYTHON_PATH"));
  auto no_python =
      RunKerchunk("bench " + ShellQuote(Data().string()) + " --compare-python --python /no/python");
  EXPECT_TRUE(
      FailsWith(no_python, "bench", "--compare-python: Python interpreter /no/python not found"));
}

}  // namespace
}  // namespace kerchunk::testing
