#include "option_checks.h"

#include <fmt/format.h>

#include <charconv>
#include <string>

namespace kerchunk::cli {

CLI::Validator WholeNumber(uint64_t min, uint64_t max) {
  const std::string expected = max == std::numeric_limits<uint64_t>::max()
                                   ? fmt::format("expected a whole number >= {}", min)
                                   : fmt::format("expected a whole number from {} to {}", min, max);
  return CLI::Validator(
      [min, max, expected](std::string& text) -> std::string {
        uint64_t value = 0;
        const char* end = text.data() + text.size();
        // from_chars takes no sign, so "-5" and "+5" fail here rather than wrap around.
        auto [stop, error] = std::from_chars(text.data(), end, value);
        if (text.empty() || error != std::errc() || stop != end || value < min || value > max) {
          return fmt::format("{}, got {}", expected, text);
        }
        return "";
      },
      "", "WholeNumber");
}

CLI::Validator ThreadCount() { return WholeNumber(0, 4096); }

}  // namespace kerchunk::cli
