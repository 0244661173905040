// Usage errors in the one-line form every other error has ("kerchunk scan: error: unknown
// option --ouput (did you mean --output?)") instead of CLI11's two generic lines.
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <string_view>
#include <vector>

namespace kerchunk::cli {

/// The name of `names` closest to `given` by edit distance, if it is close enough to be a
/// typo of it (at most a third of its length, at least 1, at most 3 edits); else "".
std::string ClosestName(std::string_view given, const std::vector<std::string>& names);

/// The first argument `command` did not recognise, as a message ("unknown option --ouput (did
/// you mean --output?)", "unexpected argument b.json"); "" when every argument was used.
std::string UnusedArgumentMessage(const CLI::App& command);

/// The message for a CLI11 parse error of `command` (nullptr: of the program itself): an unused
/// argument first (a typo in an option name usually causes the other errors), else CLI11's own
/// message, which names the option.
std::string UsageErrorMessage(const CLI::App* command, const CLI::ParseError& error);

/// Adds " REQUIRED" to the option text of required options, which CLI11 shows only when the
/// option has no text of its own ("-o,--output FILE REQUIRED").
void MarkRequiredOptions(CLI::App& command);

}  // namespace kerchunk::cli
