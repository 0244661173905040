// Where tests find the shared corpus, the built `kerchunk` program and scratch space.
#pragma once

#include <gtest/gtest.h>

#include <filesystem>
#include <optional>
#include <string>

namespace kerchunk::testing {

/// ../shared (KERCHUNK_SHARED_DIR), when it exists with a data/ folder.
std::optional<std::filesystem::path> SharedDir();
/// ../shared/data, when present.
std::optional<std::filesystem::path> SharedDataDir();
/// ../shared/expected/kerchunk-0.2.2, when present.
std::optional<std::filesystem::path> ExpectedDir();
/// Path of the built `kerchunk` program (KERCHUNK_BIN), empty if unknown.
std::string KerchunkBinary();

/// A fresh temporary directory, removed with everything in it on destruction.
class TempDir {
 public:
  TempDir();
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::filesystem::path& path() const { return path_; }
  std::string operator/(const std::string& name) const { return (path_ / name).string(); }

 private:
  std::filesystem::path path_;
};

/// Result of running a command line.
struct CommandResult {
  int exit_code = -1;
  std::string out;
  std::string err;
};
/// Runs `command` with /bin/sh, capturing stdout and stderr.
CommandResult RunCommand(const std::string& command);
/// Quotes a string for /bin/sh.
std::string ShellQuote(const std::string& s);

}  // namespace kerchunk::testing

/// Skips the current test when ../shared/data is absent (a user's fresh clone).
#define KERCHUNK_SKIP_WITHOUT_SHARED_DATA()                                         \
  do {                                                                              \
    if (!::kerchunk::testing::SharedDataDir()) GTEST_SKIP() << "no ../shared/data"; \
  } while (false)
