// simdjson's error codes as a Status: one wording for every reader built on simdjson (the
// Kerchunk JSON reader, the packed-file reader).
#pragma once

#include <fmt/format.h>
#include <simdjson.h>

#include <string_view>

#include "kerchunk/util/status.h"

namespace kerchunk::internal {

/// InvalidArgument "malformed <what>: <simdjson's message>". `what` names the document and the
/// place in it, e.g. "Kerchunk JSON (refs)" or "packed file (at \"version\")"; callers build it
/// only once an error happened.
inline Status MalformedJson(simdjson::error_code err, std::string_view what) {
  return InvalidArgumentError("malformed {}: {}", what, simdjson::error_message(err));
}

}  // namespace kerchunk::internal
