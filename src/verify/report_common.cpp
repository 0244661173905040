#include "verify/report_common.h"

#include <fmt/format.h>

namespace kerchunk::verify::internal {

std::string Grouped(uint64_t n) {
  std::string digits = fmt::format("{}", n);
  std::string out;
  out.reserve(digits.size() + digits.size() / 3);
  for (size_t i = 0; i < digits.size(); ++i) {
    if (i > 0 && (digits.size() - i) % 3 == 0) out += ',';
    out += digits[i];
  }
  return out;
}

std::string Plural(uint64_t n, std::string_view unit) {
  return fmt::format("{} {}{}", Grouped(n), unit, n == 1 ? "" : "s");
}

std::vector<NumberedFinding> FirstFindings(const Report& report, size_t n, bool advisory) {
  std::vector<NumberedFinding> out;
  for (const CaseLog* log : report.Cases()) {
    if (report.advisory(log->check()) != advisory) continue;
    for (const Finding& f : log->findings()) {
      if (out.size() >= n) return out;
      out.push_back({log, &f});
    }
  }
  return out;
}

}  // namespace kerchunk::verify::internal
