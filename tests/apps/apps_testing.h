// Helpers for the tests of the command line's promises: a generated series with its reference
// file, fingerprints that prove an input was not touched, and the search for temporary files.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "scan/cli_testing.h"
#include "support/test_env.h"

namespace kerchunk::testing {

/// Size and content hash of a file: equal before and after a run means the run left it alone.
struct Fingerprint {
  uint64_t size = 0;
  size_t hash = 0;
  friend bool operator==(const Fingerprint&, const Fingerprint&) = default;
};
Fingerprint FingerprintOf(const std::string& path);

/// Files below `dir` (recursively) whose name holds ".tmp.": temporary outputs left behind.
std::vector<std::string> TempFilesIn(const std::filesystem::path& dir);

/// A generated NetCDF-4 series in data/ (3 files) and its references refs.json, scanned once
/// per test suite; each test gets a scratch folder of its own.
class CliGuardTest : public ::testing::Test {
 protected:
  static void SetUpTestSuite();
  static void TearDownTestSuite();

  static std::filesystem::path Data() { return suite_dir_->path() / "data"; }
  static std::string Series(int i);
  static std::string Refs() { return (suite_dir_->path() / "refs.json").string(); }
  std::string Scratch(const std::string& name) const { return tmp_ / name; }

  /// A one-line error of `command` (exit 2) with exactly this message after "error: ", no
  /// stdout, and no temporary file in the scratch or suite folder.
  ::testing::AssertionResult FailsWith(const CommandResult& r, const std::string& command,
                                       const std::string& message) const;

  static TempDir* suite_dir_;
  TempDir tmp_;
};

}  // namespace kerchunk::testing
