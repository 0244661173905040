// Helpers shared by the report writers.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "kerchunk/verify/report.h"

namespace kerchunk::verify::internal {

/// 1234567 -> "1,234,567".
std::string Grouped(uint64_t n);
/// "1 problem", "3 problems", "1,200 keys".
std::string Plural(uint64_t n, std::string_view unit);

struct NumberedFinding {
  const CaseLog* log;
  const Finding* finding;
};

/// The first `n` kept findings in report order (by check, then case, then as found) of the
/// checks that are advisory (warnings) or not (problems).
std::vector<NumberedFinding> FirstFindings(const Report& report, size_t n, bool advisory);

}  // namespace kerchunk::verify::internal
