// The verify report: findings per check and array, and its writers (text for people, JSON for
// scripts, JUnit XML for CI).
#include "kerchunk/verify/report.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cstdint>
#include <map>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "kerchunk/json/json_value.h"
#include "kerchunk/util/xml.h"

namespace kerchunk::verify {

std::string_view CheckName(Check check) {
  switch (check) {
    case Check::kDocument:
      return "document";
    case Check::kMetadata:
      return "metadata";
    case Check::kXarray:
      return "xarray";
    case Check::kKeys:
      return "keys";
    case Check::kRanges:
      return "ranges";
    case Check::kFiles:
      return "files";
    case Check::kDecode:
      return "decode";
    case Check::kSource:
      return "source";
    case Check::kAgainst:
      return "against";
  }
  return "unknown";
}

void CaseLog::Fail(std::string key, std::string message) {
  ++failures_;
  if (findings_.size() < keep_) findings_.push_back({std::move(key), std::move(message)});
}

void CaseLog::Skip(uint64_t n, std::string_view reason) {
  if (n == 0) return;
  skipped_ += n;
  if (skip_reason_.empty()) skip_reason_ = std::string(reason);
}

void CaseLog::Merge(CaseLog&& other) {
  examined_ += other.examined_;
  failures_ += other.failures_;
  for (Finding& f : other.findings_) {
    if (findings_.size() >= keep_) break;
    findings_.push_back(std::move(f));
  }
  Skip(other.skipped_, other.skip_reason_);
}

void Report::Add(CaseLog log) {
  MarkRun(log.check());
  std::string id(1, static_cast<char>(log.check()));
  id += log.name();
  auto [it, inserted] = case_index_.try_emplace(std::move(id), cases_.size());
  if (!inserted) {
    cases_[it->second].Merge(std::move(log));
    return;
  }
  cases_.push_back(std::move(log));
}

std::vector<const CaseLog*> Report::Cases() const {
  std::vector<const CaseLog*> out;
  out.reserve(cases_.size());
  for (const CaseLog& c : cases_) out.push_back(&c);
  std::stable_sort(out.begin(), out.end(),
                   [](const CaseLog* a, const CaseLog* b) { return a->check() < b->check(); });
  return out;
}

uint64_t Report::Failures() const {
  uint64_t n = 0;
  for (const CaseLog& c : cases_) n += advisory(c.check()) ? 0 : c.failures();
  return n;
}

uint64_t Report::Warnings() const {
  uint64_t n = 0;
  for (const CaseLog& c : cases_) n += advisory(c.check()) ? c.failures() : 0;
  return n;
}

uint64_t Report::Failures(Check check) const {
  uint64_t n = 0;
  for (const CaseLog& c : cases_) n += c.check() == check ? c.failures() : 0;
  return n;
}

uint64_t Report::Examined(Check check) const {
  uint64_t n = 0;
  for (const CaseLog& c : cases_) n += c.check() == check ? c.examined() : 0;
  return n;
}

uint64_t Report::Skipped(Check check) const {
  uint64_t n = 0;
  for (const CaseLog& c : cases_) n += c.check() == check ? c.skipped() : 0;
  return n;
}

}  // namespace kerchunk::verify

// Helpers shared by the report writers.
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

// The report for people: short, aligned, the verdict last so `tail -1` is enough in a CI log.
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
  if (f.remote_files > 0) {
    out << fmt::format("  remote: {} read over the network: {}, {} fetched\n",
                       Plural(f.remote_files, "file"), Plural(f.remote_requests, "request"),
                       Plural(f.remote_bytes, "byte"));
  }
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

// The report for scripts: one JSON object on one line.
namespace kerchunk::verify {
namespace {

using json::Value;

Value CountsJson(const InputFacts& f) {
  Value v = Value::MakeObject();
  v.Set("keys", Value::Uint(f.keys));
  v.Set("arrays", Value::Uint(f.arrays));
  v.Set("chunk_references", Value::Uint(f.chunk_refs));
  v.Set("inline_chunks", Value::Uint(f.inline_chunks));
  v.Set("files", Value::Uint(f.files));
  return v;
}

Value ChecksJson(const Report& report) {
  Value checks = Value::MakeObject();
  for (size_t i = 0; i < kCheckCount; ++i) {
    const Check check = static_cast<Check>(i);
    Value c = Value::MakeObject();
    c.Set("ran", Value::Bool(report.ran(check)));
    c.Set("advisory", Value::Bool(report.advisory(check)));
    c.Set("examined", Value::Uint(report.Examined(check)));
    c.Set("failures", Value::Uint(report.Failures(check)));
    c.Set("skipped", Value::Uint(report.Skipped(check)));
    checks.Set(CheckName(check), std::move(c));
  }
  return checks;
}

Value AgainstJson(const Report& report) {
  const DiffTotals& t = report.diff_totals();
  Value v = Value::MakeObject();
  v.Set("other", Value::String(report.against_path()));
  v.Set("compared", Value::Uint(t.compared));
  v.Set("only_in_input", Value::Uint(t.only_in_input));
  v.Set("only_in_other", Value::Uint(t.only_in_other));
  v.Set("metadata", Value::Uint(t.metadata));
  v.Set("references", Value::Uint(t.references));
  v.Set("same_bytes_inline", Value::Uint(t.same_bytes_inline));
  return v;
}

Value FindingsJson(const Report& report, size_t max, bool advisory) {
  Value list = Value::MakeArray();
  for (const auto& p : internal::FirstFindings(report, max, advisory)) {
    Value item = Value::MakeObject();
    item.Set("check", Value::String(std::string(CheckName(p.log->check()))));
    item.Set("case", Value::String(p.log->name()));
    item.Set("key", Value::String(p.finding->key));
    item.Set("message", Value::String(p.finding->message));
    list.Push(std::move(item));
  }
  return list;
}

}  // namespace

void WriteJsonReport(const Report& report, size_t max_problems, std::ostream& out) {
  Value doc = Value::MakeObject();
  doc.Set("input", Value::String(report.facts().path));
  doc.Set("format", Value::String(report.facts().format));
  doc.Set("passed", Value::Bool(report.passed()));
  doc.Set("failures", Value::Uint(report.Failures()));
  doc.Set("counts", CountsJson(report.facts()));
  if (report.facts().remote_files > 0) {
    Value remote = Value::MakeObject();
    remote.Set("files", Value::Uint(report.facts().remote_files));
    remote.Set("requests", Value::Uint(report.facts().remote_requests));
    remote.Set("bytes", Value::Uint(report.facts().remote_bytes));
    doc.Set("remote", std::move(remote));
  }
  doc.Set("checks", ChecksJson(report));
  doc.Set("warnings", Value::Uint(report.Warnings()));
  doc.Set("problems", FindingsJson(report, max_problems, /*advisory=*/false));
  doc.Set("warning_list", FindingsJson(report, max_problems, /*advisory=*/true));
  if (report.ran(Check::kAgainst)) doc.Set("against", AgainstJson(report));
  Value notes = Value::MakeArray();
  for (const std::string& n : report.notes()) notes.Push(Value::String(n));
  doc.Set("notes", std::move(notes));
  out << doc.Dump() << "\n";
}

}  // namespace kerchunk::verify

// The report for CI systems: JUnit XML, which GitLab, Jenkins and GitHub test reporters show
// as one suite per check with one test case per array.
namespace kerchunk::verify {
namespace {

void AppendMessages(std::string& out, const CaseLog& log) {
  for (const Finding& f : log.findings()) {
    AppendXmlEscaped(out, f.message);
    out += '\n';
  }
  if (log.failures() > log.findings().size()) {
    out +=
        fmt::format("... and {} more\n", internal::Grouped(log.failures() - log.findings().size()));
  }
}

void AppendCase(std::string& out, const CaseLog& log, bool advisory) {
  const std::string suite(CheckName(log.check()));
  const std::string name = log.name().empty() ? "(root)" : log.name();
  out += fmt::format("    <testcase classname=\"kerchunk.verify.{}\" name=\"{}\">\n", suite,
                     XmlEscaped(name));
  if (log.failures() > 0 && advisory) {
    out += "      <system-out>warnings:\n";
    AppendMessages(out, log);
    out += "</system-out>\n";
  } else if (log.failures() > 0) {
    out += fmt::format("      <failure type=\"{}\" message=\"{}\">", suite,
                       XmlEscaped(internal::Plural(log.failures(), "problem") + ": " +
                                  (log.findings().empty() ? "" : log.findings()[0].message)));
    AppendMessages(out, log);
    out += "</failure>\n";
  } else if (log.examined() == 0 && log.skipped() > 0) {
    out +=
        fmt::format("      <skipped message=\"{}\"/>\n",
                    XmlEscaped(fmt::format("{} not checked: {}", internal::Grouped(log.skipped()),
                                           log.skip_reason())));
  }
  if (log.skipped() > 0 && (log.examined() > 0 || log.failures() > 0)) {
    out += fmt::format("      <system-out>{}</system-out>\n",
                       XmlEscaped(fmt::format(
                           "{} of {} not checked: {}", internal::Grouped(log.skipped()),
                           internal::Grouped(log.skipped() + log.examined()), log.skip_reason())));
  }
  out += "    </testcase>\n";
}

}  // namespace

std::string JunitReport(const Report& report) {
  std::vector<const CaseLog*> cases = report.Cases();
  std::string out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n";
  size_t failed_cases = 0;
  for (const CaseLog* c : cases) failed_cases += c->failures() > 0 && !report.advisory(c->check());
  out += fmt::format("<testsuites name=\"kerchunk verify {}\" tests=\"{}\" failures=\"{}\">\n",
                     XmlEscaped(report.facts().path), cases.size(), failed_cases);
  for (size_t i = 0; i < kCheckCount; ++i) {
    const Check check = static_cast<Check>(i);
    if (!report.ran(check)) continue;
    size_t tests = 0, failed = 0, skipped = 0;
    for (const CaseLog* c : cases) {
      if (c->check() != check) continue;
      ++tests;
      failed += c->failures() > 0 && !report.advisory(check);
      skipped += c->failures() == 0 && c->examined() == 0 && c->skipped() > 0;
    }
    out += fmt::format(
        "  <testsuite name=\"{}\" tests=\"{}\" failures=\"{}\" errors=\"0\" skipped=\"{}\">\n",
        CheckName(check), tests, failed, skipped);
    for (const CaseLog* c : cases) {
      if (c->check() == check) AppendCase(out, *c, report.advisory(check));
    }
    out += "  </testsuite>\n";
  }
  out += "</testsuites>\n";
  return out;
}

}  // namespace kerchunk::verify

// Missing referenced files, regrouped for people. The files check reports one problem per array
// and file (so that JUnit and JSON keep their per-array cases); an index whose 17 files moved
// would print 41 such lines in the text report. Here they become one line per file, and a
// folder they all share becomes a suggested --rewrite.
namespace kerchunk::verify::internal {
namespace {

constexpr std::string_view kDoesNotExist = " does not exist (";

struct ParsedMissing {
  std::string file;
  uint64_t references = 0;
};

// "<key>: <file> does not exist (<n> reference[s] into it)", as file_check.cpp writes it.
std::optional<ParsedMissing> ParseMissing(const Finding& finding) {
  std::string_view m = finding.message;
  const std::string head = finding.key + ": ";
  if (!m.starts_with(head) || !m.ends_with(" into it)")) return std::nullopt;
  m.remove_prefix(head.size());
  const size_t at = m.rfind(kDoesNotExist);
  if (at == std::string_view::npos) return std::nullopt;
  ParsedMissing parsed{std::string(m.substr(0, at)), 0};
  std::string_view count = m.substr(at + kDoesNotExist.size());
  auto [end, error] = std::from_chars(count.data(), count.data() + count.size(), parsed.references);
  if (error != std::errc()) return std::nullopt;
  return parsed;
}

std::string UrlOf(const std::string& name) {
  const size_t local = name.find(" (local ");
  return local == std::string::npos ? name : name.substr(0, local);
}

// The longest folder ("/a/b/", "s3://bucket/x/") that every URL starts with; "" for none or "/".
std::string CommonFolder(const std::vector<MissingFiles::File>& files) {
  if (files.empty()) return "";
  std::string prefix = files.front().url;
  for (const auto& f : files) {
    size_t n = 0;
    while (n < prefix.size() && n < f.url.size() && prefix[n] == f.url[n]) ++n;
    prefix.resize(n);
  }
  const size_t slash = prefix.rfind('/');
  prefix = slash == std::string::npos ? "" : prefix.substr(0, slash + 1);
  return prefix == "/" || prefix.ends_with("://") ? "" : prefix;
}

}  // namespace

bool MissingFiles::Covers(const Finding& finding) const {
  return findings > 0 && ParseMissing(finding).has_value();
}

MissingFiles CollectMissingFiles(const Report& report) {
  MissingFiles out;
  std::map<std::string, size_t> index;  // file name -> position in out.files
  for (const CaseLog* log : report.Cases()) {
    if (log->check() != Check::kFiles) continue;
    for (const Finding& finding : log->findings()) {
      std::optional<ParsedMissing> parsed = ParseMissing(finding);
      if (!parsed) continue;
      auto [it, inserted] = index.emplace(parsed->file, out.files.size());
      if (inserted) out.files.push_back({parsed->file, UrlOf(parsed->file), 0, 0});
      ++out.files[it->second].arrays;
      out.files[it->second].references += parsed->references;
      ++out.findings;
    }
  }
  out.common_folder = CommonFolder(out.files);
  return out;
}

void WriteMissingFiles(const MissingFiles& missing, size_t max, std::ostream& out) {
  if (missing.findings == 0) return;
  uint64_t references = 0;
  for (const auto& f : missing.files) references += f.references;
  out << fmt::format("Missing files ({} {}, {} into them; first {}):\n",
                     Plural(missing.files.size(), "file"),
                     missing.files.size() == 1 ? "does not exist" : "do not exist",
                     Plural(references, "reference"), std::min(max, missing.files.size()));
  for (size_t i = 0; i < missing.files.size() && i < max; ++i) {
    const auto& f = missing.files[i];
    out << fmt::format("  {}: {}, {}\n", f.name, Plural(f.arrays, "array"),
                       Plural(f.references, "reference"));
  }
  if (!missing.common_folder.empty()) {
    const std::string folder = missing.common_folder.substr(0, missing.common_folder.size() - 1);
    out << fmt::format(
        "  hint: all are under {}; if they moved, verify with --rewrite {}=NEW_FOLDER\n",
        missing.common_folder, folder);
  }
}

}  // namespace kerchunk::verify::internal
