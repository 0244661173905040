#include "kerchunk/commands/summary.h"

#include <fmt/format.h>
#include <sys/resource.h>

#include <algorithm>

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

bool AnyRemote(const RunSummary& s) {
  for (const FileCost& f : s.files) {
    if (f.remote) return true;
  }
  return false;
}

// "fetched" line: totals over the remote files and the spread per file, the figures that say
// whether a remote scan is bound by round trips.
std::string FetchedText(const RunSummary& s) {
  std::vector<uint64_t> requests;
  uint64_t total_requests = 0, total_bytes = 0, retries = 0;
  double slowest = 0;
  for (const FileCost& f : s.files) {
    if (!f.remote) continue;
    requests.push_back(f.requests);
    total_requests += f.requests;
    total_bytes += f.bytes_fetched;
    retries += f.retries;
    slowest = std::max(slowest, f.seconds);
  }
  std::sort(requests.begin(), requests.end());
  std::string out = fmt::format(
      "  {:<9}{} requests, {} from {} remote files (per file: median {} requests, max {}; "
      "slowest {:.3f} s)\n",
      "fetched", total_requests, FormatBytes(total_bytes), requests.size(),
      requests[requests.size() / 2], requests.back(), slowest);
  if (s.combine_requests) {
    out += fmt::format("  {:<9}{} requests, {} to combine (coordinate values)\n", "",
                       s.combine_requests, FormatBytes(s.combine_bytes_fetched));
  }
  if (retries)
    out += fmt::format("  {:<9}{} requests repeated after transient failures\n", "", retries);
  return out;
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
  if (AnyRemote(s)) out += FetchedText(s);
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
  if (AnyRemote(s)) {
    uint64_t requests = s.combine_requests, bytes = s.combine_bytes_fetched;
    Value files = Value::MakeArray();
    for (const FileCost& f : s.files) {
      requests += f.requests;
      bytes += f.bytes_fetched;
      Value item = Value::MakeObject();
      item.Set("path", Value::String(f.path));
      item.Set("remote", Value::Bool(f.remote));
      item.Set("requests", Value::Uint(f.requests));
      item.Set("bytes_fetched", Value::Uint(f.bytes_fetched));
      item.Set("retries", Value::Uint(f.retries));
      item.Set("size", Value::Uint(f.file_size));
      item.Set("seconds", Value::Double(f.seconds));
      files.Push(std::move(item));
    }
    root.Set("requests", Value::Uint(requests));
    root.Set("bytes_fetched", Value::Uint(bytes));
    root.Set("combine_requests", Value::Uint(s.combine_requests));
    root.Set("combine_bytes_fetched", Value::Uint(s.combine_bytes_fetched));
    root.Set("files", std::move(files));
  }
  return root.Dump() + "\n";
}

}  // namespace kerchunk
