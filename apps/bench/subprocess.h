// Running other programs for the benchmark (gzip, zstd, Python kerchunk) without a shell, so
// that file names are never interpreted, with their output captured or just counted.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "kerchunk/util/status.h"

namespace kerchunk::bench::internal {

struct ProcessOptions {
  /// File to connect to standard input ("" for /dev/null).
  std::string stdin_path;
  /// Keep standard output in ProcessResult::out; otherwise only count its bytes (compressed
  /// sizes of a gigabyte of JSON need no gigabyte of memory).
  bool keep_stdout = true;
  /// Variables added to (or replacing those of) the inherited environment.
  std::vector<std::pair<std::string, std::string>> environment;
};

struct ProcessResult {
  int exit_code = -1;  ///< exit status, or 128 + signal number when killed by a signal
  std::string out;     ///< standard output when kept
  uint64_t out_bytes = 0;
  std::string err;  ///< standard error (always kept; programs here write little to it)
};

/// Runs argv[0] (searched in PATH when it has no '/') with the arguments and waits for it.
/// An error only when it cannot be started; a failing exit code is in the result.
Result<ProcessResult> RunProcess(const std::vector<std::string>& argv,
                                 const ProcessOptions& options = {});

/// Runs one of the benchmark's Python scripts: `interpreter -c script config_path`, with
/// `config_text` written to `config_path` for the run and removed after it, and PYTHONPATH set
/// to `python_path` alone (the caller's own could shadow the package under test with another
/// copy).
Result<ProcessResult> RunPythonScript(const std::string& interpreter, const char* script,
                                      const std::string& python_path,
                                      const std::string& config_path,
                                      const std::string& config_text);

/// The full path of an executable named `name` in PATH, if any.
std::optional<std::string> FindProgram(std::string_view name);

}  // namespace kerchunk::bench::internal
