// Helpers shared by the report writers.
#pragma once

#include <cstdint>
#include <ostream>
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

/// The files check's "<key>: <file> does not exist (N references into it)" problems, one per
/// array and file, regrouped per file: a moved folder is a handful of lines, not hundreds.
struct MissingFiles {
  struct File {
    std::string name;  ///< as the problem names it: "URL" or "URL (local PATH)"
    std::string url;   ///< the URL alone
    uint64_t arrays = 0;
    uint64_t references = 0;
  };
  std::vector<File> files;    ///< in the order first met
  uint64_t findings = 0;      ///< problems regrouped
  std::string common_folder;  ///< the folder every URL is under ("" when none but "/")

  /// True for a finding regrouped here.
  bool Covers(const Finding& finding) const;
};
MissingFiles CollectMissingFiles(const Report& report);

/// Writes the regrouped missing files (at most `max` of them) and, when they share a folder,
/// the --rewrite that would point them elsewhere.
void WriteMissingFiles(const MissingFiles& missing, size_t max, std::ostream& out);

}  // namespace kerchunk::verify::internal
