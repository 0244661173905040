// CLI11 validators for numeric options. CLI11 converts "-5" to a uint64_t by wrapping it
// around (--inline-threshold -5 inlined every chunk); these check the text first, so every
// count, size and seed is a plain decimal number in its range, or a one-line usage error:
// "--inline-threshold: expected a whole number >= 0, got -5".
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <limits>

namespace kerchunk::cli {

/// A whole decimal number (digits only: no sign, no exponent) from `min` to `max`.
CLI::Validator WholeNumber(uint64_t min, uint64_t max = std::numeric_limits<uint64_t>::max());

/// WholeNumber for thread counts: 0 (hardware threads) to 4096.
CLI::Validator ThreadCount();

}  // namespace kerchunk::cli
