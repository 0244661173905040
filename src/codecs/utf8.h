// UTF-8 helpers for the object codecs: validation, and JSON strings escaped as Python's
// json.dumps(ensure_ascii=True) writes them.
#pragma once

#include <string>
#include <string_view>

namespace kerchunk::codecs::internal {

/// True when `s` is well-formed UTF-8 (no overlong forms, surrogates or values above U+10FFFF).
bool IsValidUtf8(std::string_view s);

/// Appends `s` (valid UTF-8) as a quoted JSON string with every non-ASCII character written as
/// \uXXXX (UTF-16 surrogate pairs above U+FFFF), control characters as \n, \t, ... or \u00XX.
void AppendAsciiJsonString(std::string_view s, std::string& out);

}  // namespace kerchunk::codecs::internal
