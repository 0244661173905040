// Counting a server's requests from its access log, for the remote scan of `kerchunk bench`:
// the lines a step appends are its requests, whichever tool sends them. The log is nginx's
// default "combined" format (also Apache's): `ADDR - USER [TIME] "REQUEST" STATUS BYTES
// "REFERER" "AGENT"`, BYTES being the body bytes sent ($body_bytes_sent, "-" for none).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "kerchunk/util/status.h"

namespace kerchunk::bench::internal {

struct LogCounts {
  uint64_t requests = 0;
  uint64_t bytes = 0;
};

/// Parses the lines of `text` (whole lines only); InvalidArgument naming `log` and the line
/// number for a line that is not in the combined format.
Result<LogCounts> CountLogLines(std::string_view text, const std::string& log);

/// The size of the log now (where a step's lines will start).
Result<uint64_t> LogSize(const std::string& log);

/// The lines appended to `log` since `from` (its LogSize before the step), counted. The server
/// writes a line after each response, so this waits until the log has stopped growing for
/// 200 ms (at most 5 s).
Result<LogCounts> CountLogSince(const std::string& log, uint64_t from);

}  // namespace kerchunk::bench::internal
