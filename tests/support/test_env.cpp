#include "support/test_env.h"

#include <fmt/format.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <random>
#include <sstream>

namespace kerchunk::testing {

std::optional<std::filesystem::path> SharedDir() {
  // The environment wins; the configured default also serves test discovery, which ctest runs
  // without the tests' environment (parameterised corpus tests list their files at start-up).
  const char* env = std::getenv("KERCHUNK_SHARED_DIR");
  std::filesystem::path p = (env && *env) ? env : KERCHUNK_DEFAULT_SHARED_DIR;
  if (p.empty()) return std::nullopt;
  if (!std::filesystem::is_directory(p / "data")) return std::nullopt;
  return p;
}

std::optional<std::filesystem::path> SharedDataDir() {
  auto s = SharedDir();
  if (!s) return std::nullopt;
  return *s / "data";
}

std::optional<std::filesystem::path> ExpectedDir() {
  auto s = SharedDir();
  if (!s || !std::filesystem::is_directory(*s / "expected" / "kerchunk-0.2.2")) {
    return std::nullopt;
  }
  return *s / "expected" / "kerchunk-0.2.2";
}

std::string KerchunkBinary() {
  const char* env = std::getenv("KERCHUNK_BIN");
  return (env && *env) ? env : KERCHUNK_DEFAULT_BIN;
}

TempDir::TempDir() {
  std::random_device rd;
  auto base = std::filesystem::temp_directory_path();
  for (;;) {
    path_ = base / fmt::format("kerchunk-test-{}-{:08x}", ::getpid(), rd());
    if (std::filesystem::create_directory(path_)) break;
  }
}

TempDir::~TempDir() {
  std::error_code ec;
  std::filesystem::remove_all(path_, ec);
}

std::string ShellQuote(const std::string& s) {
  std::string out = "'";
  for (char c : s) {
    if (c == '\'') {
      out += "'\\''";
    } else {
      out += c;
    }
  }
  return out + "'";
}

CommandResult RunCommand(const std::string& command) {
  TempDir tmp;
  std::string out_path = tmp / "stdout";
  std::string err_path = tmp / "stderr";
  std::string full =
      fmt::format("({}) >{} 2>{}", command, ShellQuote(out_path), ShellQuote(err_path));
  int status = std::system(full.c_str());
  CommandResult r;
  r.exit_code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  auto slurp = [](const std::string& p) {
    std::ifstream in(p, std::ios::binary);
    std::stringstream ss;
    ss << in.rdbuf();
    return ss.str();
  };
  r.out = slurp(out_path);
  r.err = slurp(err_path);
  return r;
}

}  // namespace kerchunk::testing
