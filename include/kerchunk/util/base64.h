// Standard base64 (RFC 4648, with padding), as Kerchunk's "base64:" inline values use.
#pragma once

#include <string>
#include <string_view>

#include "kerchunk/util/status.h"

namespace kerchunk {

std::string Base64Encode(std::string_view bytes);
/// Appends the encoding of `bytes` to `out` (avoids a temporary in writers).
void Base64EncodeTo(std::string_view bytes, std::string& out);
/// Decodes standard base64; padding is optional, whitespace and other characters are rejected.
Result<std::string> Base64Decode(std::string_view text);

}  // namespace kerchunk
