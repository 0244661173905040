// The report for scripts: one JSON object on one line.
#include <fmt/format.h>

#include "kerchunk/json/json_value.h"
#include "kerchunk/verify/report.h"
#include "verify/report_common.h"

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
