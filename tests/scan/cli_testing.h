// Helpers for tests that run the built `kerchunk` program: running it, checking the one-line
// error contract and that a failed run leaves no file behind.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "kerchunk/refs/reference_set.h"
#include "support/test_env.h"

namespace kerchunk::testing {

/// The fixture of the tests that run `kerchunk` on generated files: a temporary folder, with an
/// empty out() for what the program writes.
class CliTest : public ::testing::Test {
 protected:
  void SetUp() override { std::filesystem::create_directories(out()); }
  std::filesystem::path out() const { return dir_.path() / "out"; }
  /// The shell-quoted path of `name` in out().
  std::string Out(const std::string& name) const { return ShellQuote((out() / name).string()); }
  /// The paths as shell-quoted arguments, each after a space.
  static std::string Inputs(const std::vector<std::string>& paths);

  TempDir dir_;
};

/// Runs `kerchunk <args>` (args already shell-quoted where needed) under `timeout`, so an endless
/// loop fails the test (exit status 124) instead of hanging it.
CommandResult RunKerchunk(const std::string& args, int timeout_seconds = 120);

/// Files in `dir`, sorted.
std::vector<std::string> FilesIn(const std::filesystem::path& dir);

/// The error contract of a failed run: exit status 2, one line on stderr
/// "kerchunk <command>: error: ..." naming `must_name`, nothing on stdout.
::testing::AssertionResult IsOneLineError(const CommandResult& r, const std::string& command,
                                          const std::string& must_name);

/// Success when every byte-range reference of `refs` (chunks and other keys) ends at or before
/// `file_size`: what a scan of a damaged file that did not fail must guarantee.
::testing::AssertionResult RangesInside(const ReferenceSet& refs, uint64_t file_size);

/// Reads the reference file at `refs_path` and checks RangesInside.
::testing::AssertionResult ReferenceFileRangesInside(const std::string& refs_path,
                                                     uint64_t file_size);

/// A copy of `source` in `dir` cut to `size` bytes.
std::string TruncatedCopy(const std::string& source, const std::filesystem::path& dir,
                          uint64_t size);
/// A copy of `source` in `dir` with the byte at `offset` inverted.
std::string FlippedCopy(const std::string& source, const std::filesystem::path& dir,
                        uint64_t offset);

}  // namespace kerchunk::testing
