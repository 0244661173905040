#include "kerchunk/commands/summary.h"

#include <fmt/format.h>
#include <sys/resource.h>

#include "kerchunk/json/json_value.h"
#include "kerchunk/util/byte_size.h"

namespace kerchunk {
namespace {

double PerSecond(uint64_t count, double seconds) {
  return seconds > 0 ? static_cast<double>(count) / seconds : 0.0;
}

void CountArray(const ArrayRefs& array, RunSummary& summary) {
  const auto& urls = array.urls();
  const auto& lengths = array.lengths();
  for (size_t i = 0; i < array.size(); ++i) {
    bool is_inline = urls[i] == ArrayRefs::kInlineText || urls[i] == ArrayRefs::kInlineBase64;
    if (!is_inline && lengths[i] != ArrayRefs::kWholeFileLength) {
      summary.referenced_bytes += lengths[i];
    }
  }
  summary.inline_bytes += array.inline_data().size();
}

}  // namespace

void CountReferences(const ReferenceSet& refs, RunSummary& summary) {
  summary.arrays = 0;
  summary.referenced_bytes = 0;
  summary.inline_bytes = 0;
  summary.chunks = refs.ChunkCount();
  for (const Entry& entry : refs.entries) {
    if (ZarrayKeyArrayPath(entry.key)) ++summary.arrays;
    if (entry.value.kind == EntryValue::Kind::kRange)
      summary.referenced_bytes += entry.value.length;
    if (entry.value.kind == EntryValue::Kind::kBase64) {
      summary.inline_bytes += entry.value.data.size();
    }
  }
  for (const ArrayRefs& array : refs.arrays) CountArray(array, summary);
}

uint64_t PeakRssBytes() {
  struct rusage usage {};
  if (::getrusage(RUSAGE_SELF, &usage) != 0) return 0;
  return static_cast<uint64_t>(usage.ru_maxrss) * 1024;  // Linux reports KiB
}

std::string FormatSummaryText(const RunSummary& s) {
  std::string out = fmt::format("kerchunk {}: wrote {}\n", s.command,
                                s.output == "-" ? "standard output" : s.output);
  const char* noun = s.command == "scan" ? "files" : "parts";
  out += fmt::format("  {:<9}{} read, {} skipped\n", noun, s.read, s.skipped.size());
  if (!s.concat_dim.empty()) out += fmt::format("  {:<9}along \"{}\"\n", "combined", s.concat_dim);
  out += fmt::format("  {:<9}{}\n", "arrays", s.arrays);
  out += fmt::format("  {:<9}{} references to {}, {} inline\n", "chunks", s.chunks,
                     FormatBytes(s.referenced_bytes), FormatBytes(s.inline_bytes));
  out += fmt::format("  {:<9}{:.3f} s ({:.1f} {}/s, {:.0f} refs/s)\n", "time", s.seconds,
                     PerSecond(s.read, s.seconds), noun, PerSecond(s.chunks, s.seconds));
  out += fmt::format("  {:<9}{} {}, peak memory {}\n", "output", FormatBytes(s.output_bytes),
                     s.packed ? "packed" : "JSON", FormatBytes(s.peak_rss_bytes));
  for (const SkippedInput& skipped : s.skipped) {
    out += fmt::format("  {:<9}{}\n", "skipped", skipped.error);
  }
  return out;
}

std::string FormatSummaryJson(const RunSummary& s) {
  using json::Value;
  Value root = Value::MakeObject();
  root.Set("command", Value::String(s.command));
  root.Set("output", Value::String(s.output));
  root.Set("inputs", Value::Uint(s.inputs));
  root.Set("read", Value::Uint(s.read));
  Value skipped = Value::MakeArray();
  for (const SkippedInput& input : s.skipped) {
    Value item = Value::MakeObject();
    item.Set("path", Value::String(input.path));
    item.Set("error", Value::String(input.error));
    skipped.Push(std::move(item));
  }
  root.Set("skipped", std::move(skipped));
  Value warnings = Value::MakeArray();
  for (const std::string& warning : s.warnings) warnings.Push(Value::String(warning));
  root.Set("warnings", std::move(warnings));
  root.Set("concat_dim", s.concat_dim.empty() ? Value::Null() : Value::String(s.concat_dim));
  root.Set("arrays", Value::Uint(s.arrays));
  root.Set("chunks", Value::Uint(s.chunks));
  root.Set("referenced_bytes", Value::Uint(s.referenced_bytes));
  root.Set("inline_bytes", Value::Uint(s.inline_bytes));
  root.Set("output_bytes", Value::Uint(s.output_bytes));
  root.Set("seconds", Value::Double(s.seconds));
  root.Set("inputs_per_second", Value::Double(PerSecond(s.read, s.seconds)));
  root.Set("refs_per_second", Value::Double(PerSecond(s.chunks, s.seconds)));
  root.Set("peak_rss_bytes", Value::Uint(s.peak_rss_bytes));
  return root.Dump() + "\n";
}

}  // namespace kerchunk
