// The report for people: short, aligned, the verdict last so `tail -1` is enough in a CI log.
#include <fmt/format.h>

#include "kerchunk/verify/report.h"
#include "verify/report_common.h"

namespace kerchunk::verify {
namespace {

using internal::Grouped;
using internal::Plural;

// What each check counts, for "examined" columns.
std::string_view ExaminedUnit(Check check) {
  switch (check) {
    case Check::kDocument:
      return "document";
    case Check::kMetadata:
      return "metadata key";
    case Check::kXarray:
      return "array";
    case Check::kKeys:
      return "chunk key";
    case Check::kRanges:
      return "reference";
    case Check::kFiles:
      return "reference";
    case Check::kDecode:
      return "chunk";
    case Check::kSource:
      return "chunk";
    case Check::kAgainst:
      return "key";
  }
  return "item";
}

std::string FirstSkipReason(const Report& report, Check check) {
  for (const CaseLog* c : report.Cases()) {
    if (c->check() == check && !c->skip_reason().empty()) return c->skip_reason();
  }
  return {};
}

void WriteCheckLine(const Report& report, Check check, std::ostream& out) {
  std::string status;
  if (!report.ran(check)) {
    status = "not run";
  } else if (uint64_t f = report.Failures(check); f > 0) {
    status = Plural(f, report.advisory(check) ? "warning" : "problem");
  } else {
    status = "ok";
  }
  std::string detail;
  if (report.ran(check)) {
    detail = Plural(report.Examined(check), ExaminedUnit(check));
    if (uint64_t s = report.Skipped(check); s > 0) {
      detail += fmt::format(", {} not checked ({})", Grouped(s), FirstSkipReason(report, check));
    }
  }
  std::string line = fmt::format("  {:<9} {:<14} {}", CheckName(check), status, detail);
  while (line.back() == ' ') line.pop_back();
  out << line << "\n";
}

void WriteAgainstTotals(const Report& report, std::ostream& out) {
  const DiffTotals& t = report.diff_totals();
  out << fmt::format(
      "  against {}: {} compared; only in input {}, only in other {}, metadata {}, "
      "references {}",
      report.against_path(), Grouped(t.compared), Grouped(t.only_in_input),
      Grouped(t.only_in_other), Grouped(t.metadata), Grouped(t.references));
  if (t.same_bytes_inline > 0) {
    out << fmt::format("; {} inline/range pairs with equal bytes", Grouped(t.same_bytes_inline));
  }
  out << "\n";
}

void WriteFindings(const Report& report, size_t max, bool advisory, std::ostream& out) {
  uint64_t total = advisory ? report.Warnings() : report.Failures();
  if (total == 0 || max == 0) return;
  internal::MissingFiles missing;
  // One missing file is one line anyway; several are listed per file, with a --rewrite hint.
  if (!advisory) missing = internal::CollectMissingFiles(report);
  if (missing.files.size() < 2) missing = {};
  internal::WriteMissingFiles(missing, max, out);
  total -= missing.findings;
  std::vector<internal::NumberedFinding> first;
  for (const auto& p : internal::FirstFindings(report, max + missing.findings, advisory)) {
    if (first.size() < max && !missing.Covers(*p.finding)) first.push_back(p);
  }
  if (total == 0 || first.empty()) return;
  out << fmt::format("{}{} (first {} of {}):\n", advisory ? "Warnings" : "Problems",
                     missing.findings > 0 ? " besides missing files" : "", first.size(),
                     Grouped(total));
  for (const auto& p : first) {
    out << fmt::format("  {}: {}\n", CheckName(p.log->check()), p.finding->message);
  }
}

}  // namespace

void WriteTextReport(const Report& report, size_t max_problems, std::ostream& out) {
  const InputFacts& f = report.facts();
  out << fmt::format("kerchunk verify {} ({}): {}, {}, {} ({} inline), {}\n", f.path, f.format,
                     Plural(f.keys, "key"), Plural(f.arrays, "array"),
                     Plural(f.chunk_refs, "chunk reference"), Grouped(f.inline_chunks),
                     Plural(f.files, "file"));
  for (size_t i = 0; i < kCheckCount; ++i) WriteCheckLine(report, static_cast<Check>(i), out);
  if (report.ran(Check::kAgainst)) WriteAgainstTotals(report, out);
  for (const std::string& note : report.notes()) out << "  note: " << note << "\n";

  WriteFindings(report, max_problems, /*advisory=*/true, out);
  WriteFindings(report, max_problems, /*advisory=*/false, out);
  const uint64_t failures = report.Failures();
  if (failures == 0) {
    const uint64_t warnings = report.Warnings();
    out << (warnings == 0 ? std::string("OK\n")
                          : fmt::format("OK ({})\n", Plural(warnings, "warning")));
    return;
  }
  std::string per_check;
  for (size_t i = 0; i < kCheckCount; ++i) {
    const Check check = static_cast<Check>(i);
    const uint64_t n = report.advisory(check) ? 0 : report.Failures(check);
    if (n == 0) continue;
    if (!per_check.empty()) per_check += ", ";
    per_check += fmt::format("{} {}", CheckName(static_cast<Check>(i)), Grouped(n));
  }
  out << fmt::format("FAILED: {} ({})\n", Plural(failures, "problem"), per_check);
}

}  // namespace kerchunk::verify
