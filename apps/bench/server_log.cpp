#include "bench/server_log.h"

#include <charconv>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

namespace kerchunk::bench::internal {
namespace {

// STATUS and BYTES after the quoted request of one combined-format line.
bool ParseLine(std::string_view line, uint64_t& bytes) {
  const size_t open = line.find('"');
  if (open == std::string_view::npos) return false;
  // nginx escapes a '"' inside the request as \x22, so the request ends at the next '" '.
  const size_t close = line.find("\" ", open + 1);
  if (close == std::string_view::npos) return false;
  std::string_view rest = line.substr(close + 2);
  unsigned status = 0;
  auto [after_status, ec] = std::from_chars(rest.data(), rest.data() + rest.size(), status);
  if (ec != std::errc() || after_status == rest.data() + rest.size() || *after_status != ' ') {
    return false;
  }
  rest.remove_prefix(static_cast<size_t>(after_status - rest.data()) + 1);
  if (rest.starts_with("-")) {
    bytes = 0;
    return true;
  }
  return std::from_chars(rest.data(), rest.data() + rest.size(), bytes).ec == std::errc();
}

}  // namespace

Result<LogCounts> CountLogLines(std::string_view text, const std::string& log) {
  LogCounts counts;
  uint64_t number = 0;
  while (!text.empty()) {
    const size_t end = text.find('\n');
    if (end == std::string_view::npos) break;  // a line still being written
    const std::string_view line = text.substr(0, end);
    text.remove_prefix(end + 1);
    ++number;
    if (line.empty()) continue;
    uint64_t bytes = 0;
    if (!ParseLine(line, bytes)) {
      return InvalidArgumentError(
          "--server-log {}: line {}: expected nginx's combined format (ADDR - USER [TIME] "
          "\"REQUEST\" STATUS BYTES ...), got '{}'",
          log, number, line.substr(0, 120));
    }
    ++counts.requests;
    counts.bytes += bytes;
  }
  return counts;
}

Result<uint64_t> LogSize(const std::string& log) {
  std::error_code ec;
  const uint64_t size = std::filesystem::file_size(log, ec);
  if (ec) return NotFoundError("--server-log {}: {}", log, ec.message());
  return size;
}

Result<LogCounts> CountLogSince(const std::string& log, uint64_t from) {
  using std::chrono::milliseconds;
  KERCHUNK_ASSIGN_OR_RETURN(uint64_t size, LogSize(log));
  for (int stable = 0, waited = 0; stable < 4 && waited < 100; ++waited) {
    std::this_thread::sleep_for(milliseconds(50));
    KERCHUNK_ASSIGN_OR_RETURN(uint64_t now, LogSize(log));
    stable = now == size ? stable + 1 : 0;
    size = now;
  }
  if (size < from) return DataLossError("--server-log {}: the log shrank during the step", log);
  std::ifstream in(log, std::ios::binary);
  in.seekg(static_cast<std::streamoff>(from));
  std::string text(size - from, '\0');
  in.read(text.data(), static_cast<std::streamsize>(text.size()));
  if (!in) return IoError("--server-log {}: cannot read it", log);
  return CountLogLines(text, log);
}

}  // namespace kerchunk::bench::internal
