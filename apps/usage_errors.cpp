#include "usage_errors.h"

#include <fmt/format.h>

#include <algorithm>

namespace kerchunk::cli {
namespace {

// Optimal string alignment distance: insertions, deletions, substitutions and transpositions of
// adjacent characters ("sacn" -> "scan") each count 1.
size_t EditDistance(std::string_view a, std::string_view b) {
  std::vector<std::vector<size_t>> d(a.size() + 1, std::vector<size_t>(b.size() + 1));
  for (size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (size_t i = 1; i <= a.size(); ++i) {
    for (size_t j = 1; j <= b.size(); ++j) {
      d[i][j] = std::min(
          {d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1]) {
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
      }
    }
  }
  return d[a.size()][b.size()];
}

std::vector<std::string> OptionNames(const CLI::App& command) {
  std::vector<std::string> names;
  for (const CLI::Option* option : command.get_options()) {
    for (const std::string& name : option->get_lnames()) names.push_back("--" + name);
    for (const std::string& name : option->get_snames()) names.push_back("-" + name);
  }
  return names;
}

}  // namespace

std::string ClosestName(std::string_view given, const std::vector<std::string>& names) {
  const size_t allowed = std::clamp<size_t>(given.size() / 3, 1, 3);
  std::string best;
  size_t best_distance = allowed + 1;
  for (const std::string& name : names) {
    const size_t d = EditDistance(given, name);
    if (d < best_distance) {
      best = name;
      best_distance = d;
    }
  }
  return best;
}

std::string UnusedArgumentMessage(const CLI::App& command) {
  const std::vector<std::string> unused = command.remaining();
  if (unused.empty()) return "";
  std::string first = unused.front();
  if (!first.starts_with("-") || first == "-") return "unexpected argument " + first;
  first = first.substr(0, first.find('='));  // --ouput=x.json
  const std::string suggestion = ClosestName(first, OptionNames(command));
  return suggestion.empty()
             ? fmt::format("unknown option {}", first)
             : fmt::format("unknown option {} (did you mean {}?)", first, suggestion);
}

std::string UsageErrorMessage(const CLI::App* command, const CLI::ParseError& error) {
  if (command) {
    if (std::string unused = UnusedArgumentMessage(*command); !unused.empty()) return unused;
  }
  // CLI11 says "Could not convert: --sample = abc".
  const std::string message = error.what();
  constexpr std::string_view kConvert = "Could not convert: ";
  if (const size_t eq = message.find(" = "); message.starts_with(kConvert) && eq != message.npos) {
    return fmt::format("{}: invalid value {}",
                       message.substr(kConvert.size(), eq - kConvert.size()),
                       message.substr(eq + 3));
  }
  return message;
}

void MarkRequiredOptions(CLI::App& command) {
  for (CLI::Option* option : command.get_options()) {
    const std::string& text = option->get_option_text();
    if (option->get_required() && !text.empty() && !text.ends_with("REQUIRED")) {
      option->option_text(text + " REQUIRED");
    }
  }
}

}  // namespace kerchunk::cli
