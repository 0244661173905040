// The bench tables for people.
#include <fmt/format.h>

#include <algorithm>

#include "bench/format.h"
#include "kerchunk/bench/report.h"

namespace kerchunk::bench {
namespace {

using internal::Bytes;
using internal::Count;
using internal::Duration;
using internal::Rate;
using internal::Sig3;
using internal::TextTable;

std::string PerRef(uint64_t bytes, uint64_t refs) {
  return refs == 0 ? "-" : Sig3(static_cast<double>(bytes) / static_cast<double>(refs));
}

std::string SmallerBy(uint64_t json, uint64_t size) {
  return size == 0 ? "-" : Sig3(static_cast<double>(json) / static_cast<double>(size)) + "x";
}

std::string SizesTable(const SetReport& s) {
  std::vector<std::vector<std::string>> rows = {{"size", "bytes", "", "bytes/ref", "JSON / size"}};
  auto add = [&](const std::string& what, uint64_t bytes) {
    rows.push_back({what, Count(bytes), Bytes(static_cast<double>(bytes)), PerRef(bytes, s.chunks),
                    SmallerBy(s.sizes.json, bytes)});
  };
  add("Kerchunk JSON", s.sizes.json);
  add("packed", s.sizes.packed);
  add("packed --readable", s.sizes.packed_readable);
  if (s.sizes.gzip) add("gzip -6 of JSON", *s.sizes.gzip);
  if (s.sizes.zstd) add("zstd -19 of JSON", *s.sizes.zstd);
  return TextTable(rows);
}

std::string StepsTable(const SetReport& s) {
  std::vector<std::vector<std::string>> rows = {
      {"step", "time", "cpu", "refs", "refs/s", "refs/cpu-s", "bytes/s", "ns/ref", "peak RSS"}};
  for (const StepResult& step : s.steps) {
    rows.push_back(
        {step.name, Duration(step.median_seconds), Duration(step.median_cpu_seconds),
         Count(step.refs), Rate(step.refs_per_second()), Rate(step.refs_per_cpu_second()),
         step.bytes ? Bytes(step.bytes_per_second()) + "/s" : "-", Sig3(step.nanoseconds_per_ref()),
         Bytes(static_cast<double>(step.peak_rss_bytes)) + (step.per_step_peak ? "" : "*")});
  }
  return TextTable(rows);
}

std::string Ratio(double ours, double theirs, const char* better, const char* worse) {
  if (ours <= 0 || theirs <= 0) return "-";
  return ours <= theirs ? Sig3(theirs / ours) + "x " + better : Sig3(ours / theirs) + "x " + worse;
}

std::string PythonTable(const SetReport& s) {
  const PythonComparison& c = *s.comparison;
  const PythonResult& p = c.python;
  std::string text = fmt::format(
      "  Python kerchunk (__version__ {}; Python {}, {}{}): {} chunk references, {} differ from "
      "ours\n",
      p.version, p.python, p.real_ujson ? "ujson" : "json standing in for ujson",
      p.search_path.empty() ? "" : ", from " + p.search_path, Count(c.their_chunks),
      Count(c.differing_chunks));
  if (!c.comparable) return text + "  not comparable: the reference counts differ\n";
  std::vector<std::vector<std::string>> rows = {{"", "Python kerchunk", "ours", "ours vs Python"}};
  rows.push_back({"scan (translate + combine + write)", Duration(p.scan_seconds + p.write_seconds),
                  Duration(c.our_scan_seconds),
                  Ratio(c.our_scan_seconds, p.scan_seconds + p.write_seconds, "faster", "slower")});
  rows.push_back({"JSON size", Bytes(static_cast<double>(p.json_bytes)),
                  Bytes(static_cast<double>(s.sizes.json)),
                  Ratio(static_cast<double>(s.sizes.json), static_cast<double>(p.json_bytes),
                        "smaller", "larger")});
  rows.push_back({"packed size", Bytes(static_cast<double>(p.json_bytes)),
                  Bytes(static_cast<double>(s.sizes.packed)),
                  Ratio(static_cast<double>(s.sizes.packed), static_cast<double>(p.json_bytes),
                        "smaller", "larger")});
  rows.push_back({"load its JSON (json.load / ours)", Duration(p.load_theirs_seconds),
                  Duration(c.our_load_seconds),
                  Ratio(c.our_load_seconds, p.load_theirs_seconds, "faster", "slower")});
  rows.push_back({"json.load of our JSON", Duration(p.load_ours_seconds), "", ""});
  rows.push_back(
      {"peak RSS of the scan", Bytes(static_cast<double>(p.peak_rss_bytes)),
       s.FindStep("scan") ? Bytes(static_cast<double>(s.FindStep("scan")->peak_rss_bytes)) : "-",
       ""});
  return text + TextTable(rows);
}

std::string Fetched(const FetchCounts& c) {
  if (!c.requests) return "unknown";
  return fmt::format("{} requests, {}", Count(*c.requests), Bytes(static_cast<double>(*c.bytes)));
}

// The remote scan: both tools' wall time and what they fetched, the log's count beside ours.
std::string RemoteTable(const SetReport& s) {
  const RemoteScan& r = *s.remote;
  std::string text = fmt::format("  remote scan: our median {} requests per file; server log: {}\n",
                                 Sig3(r.median_requests_per_file),
                                 r.server_log.empty() ? "none given" : r.server_log);
  std::vector<std::vector<std::string>> rows = {
      {"", "wall time", "fetched (byte sources)", "fetched (server log)"}};
  rows.push_back({"ours", Duration(r.our_seconds), Fetched(r.ours), Fetched(r.ours_logged)});
  if (r.python_seconds) {
    rows.push_back({"Python kerchunk (fsspec HTTP)", Duration(*r.python_seconds), "-",
                    Fetched(r.python_logged)});
    rows.push_back(
        {"ours vs Python", Ratio(r.our_seconds, *r.python_seconds, "faster", "slower"), "", ""});
  }
  return text + TextTable(rows);
}

std::string XarrayTable(const XarrayOpenResult& x) {
  std::string text = fmt::format("  xarray open ({}), then read {}; each route its own process\n",
                                 x.versions, x.selection);
  std::vector<std::vector<std::string>> rows = {
      {"route", "open", "select", "peak RSS", "RSS after imports", "open vs fsspec"}};
  for (const XarrayOpenRun& r : x.runs) {
    rows.push_back({r.route, Duration(r.open_seconds), Duration(r.select_seconds),
                    Bytes(static_cast<double>(r.peak_rss_bytes)),
                    Bytes(static_cast<double>(r.start_rss_bytes)),
                    &r == &x.runs.front()
                        ? ""
                        : Ratio(r.open_seconds, x.runs.front().open_seconds, "faster", "slower")});
  }
  return text + TextTable(rows);
}

void WriteSet(const SetReport& s, std::ostream& out) {
  out << fmt::format("kerchunk bench: {} ({})\n", s.name, s.source);
  out << fmt::format(
      "  files {}  arrays {}  chunks {}  keys {}  gfactor {:.3f}  length entropy {:.1f} bits",
      Count(s.files), Count(s.arrays), Count(s.chunks), Count(s.keys), s.gfactor,
      s.length_entropy_bits);
  if (s.data_bytes) out << fmt::format("  data {}", Bytes(static_cast<double>(s.data_bytes)));
  if (s.generate_seconds > 0)
    out << fmt::format("  (generated in {})", Duration(s.generate_seconds));
  out << "\n\n" << SizesTable(s) << "\n" << StepsTable(s);
  if (s.lookup.keys > 0) {
    out << fmt::format("  lookup latency: median {}, p99 {} ({} random keys a run)\n",
                       Duration(s.lookup.median_ns * 1e-9), Duration(s.lookup.p99_ns * 1e-9),
                       Count(s.lookup.keys));
  }
  if (s.comparison) out << "\n" << PythonTable(s);
  if (s.remote) out << "\n" << RemoteTable(s);
  if (s.xarray_open) out << "\n" << XarrayTable(*s.xarray_open);
  for (const std::string& note : s.notes) out << "  note: " << note << "\n";
  out << "\n";
}

std::string StepNsPerRef(const SetReport& s, const char* step, bool cpu) {
  const StepResult* r = s.FindStep(step);
  if (r == nullptr || r->refs == 0) return "-";
  return Sig3((cpu ? r->median_cpu_seconds : r->median_seconds) * 1e9 /
              static_cast<double>(r->refs));
}

// One row per size: sizes per reference and nanoseconds per reference of every step, wall
// clock or CPU time.
std::string ScalingTable(const BenchReport& report, bool cpu) {
  static const char* kSteps[] = {"scan", "load", "write", "pack", "open", "unpack", "verify"};
  std::vector<std::string> header = {"refs", "files", "JSON B/ref", "packed B/ref"};
  header.insert(header.end(), std::begin(kSteps), std::end(kSteps));
  header.insert(header.end(), {"lookup p50", "peak RSS"});
  std::vector<std::vector<std::string>> rows = {header};
  for (const SetReport& s : report.sets) {
    uint64_t peak = 0;
    for (const StepResult& step : s.steps) peak = std::max(peak, step.peak_rss_bytes);
    std::vector<std::string> row = {Count(s.chunks), Count(s.files), PerRef(s.sizes.json, s.chunks),
                                    PerRef(s.sizes.packed, s.chunks)};
    for (const char* step : kSteps) row.push_back(StepNsPerRef(s, step, cpu));
    row.push_back(Duration(s.lookup.median_ns * 1e-9));
    row.push_back(Bytes(static_cast<double>(peak)));
    rows.push_back(std::move(row));
  }
  return TextTable(rows);
}

void WriteScaling(const BenchReport& report, std::ostream& out) {
  out << "kerchunk bench --scale: "
      << (report.sets.empty() ? std::string() : report.sets.front().source)
      << "; step columns are nanoseconds per chunk reference (constant = linear growth)\n\n"
      << "  wall clock:\n"
      << ScalingTable(report, false) << "\n  CPU time (all threads):\n"
      << ScalingTable(report, true);
  if (!report.plot_path.empty()) out << "\n  plot: " << report.plot_path << "\n";
  out << "\n";
}

std::string ShortName(const std::string& name) {
  std::string trimmed = name;
  while (trimmed.size() > 1 && trimmed.back() == '/') trimmed.pop_back();
  return trimmed.substr(trimmed.rfind('/') == std::string::npos ? 0 : trimmed.rfind('/') + 1);
}

std::string StepTime(const SetReport& s, const char* step) {
  const StepResult* r = s.FindStep(step);
  return r ? Duration(r->median_seconds) : "-";
}

// One row per set, for runs over several sets (e.g. every folder of a corpus with --each).
void WriteSummary(const BenchReport& report, std::ostream& out) {
  std::vector<std::vector<std::string>> rows = {{"set", "files", "chunks", "JSON", "packed",
                                                 "JSON/packed", "scan", "scan refs/s", "pack",
                                                 "unpack", "lookup p50", "verify"}};
  for (const SetReport& s : report.sets) {
    const StepResult* scan = s.FindStep("scan");
    rows.push_back(
        {ShortName(s.name), Count(s.files), Count(s.chunks),
         Bytes(static_cast<double>(s.sizes.json)), Bytes(static_cast<double>(s.sizes.packed)),
         SmallerBy(s.sizes.json, s.sizes.packed), StepTime(s, "scan"),
         scan ? Rate(scan->refs_per_second()) : "-", StepTime(s, "pack"), StepTime(s, "unpack"),
         Duration(s.lookup.median_ns * 1e-9), StepTime(s, "verify")});
  }
  out << "kerchunk bench: summary of " << report.sets.size() << " sets\n\n"
      << TextTable(rows) << "\n";
}

}  // namespace

void WriteBenchText(const BenchReport& report, std::ostream& out) {
  if (report.scaling) {
    WriteScaling(report, out);
  } else {
    for (const SetReport& set : report.sets) WriteSet(set, out);
    if (report.sets.size() > 1) WriteSummary(report, out);
  }
  bool process_peak = false;
  for (const SetReport& set : report.sets) {
    for (const StepResult& step : set.steps) process_peak |= !step.per_step_peak;
  }
  out << fmt::format("machine: {}\n", MachineSummary(report.machine));
  out << fmt::format("times: median of {} run{}; scan with {} thread{}{}\n", report.repeat,
                     report.repeat == 1 ? "" : "s", report.jobs, report.jobs == 1 ? "" : "s",
                     process_peak ? "; * peak RSS of the process (per-step reset refused)" : "");
}

const StepResult* SetReport::FindStep(std::string_view step) const {
  auto it =
      std::find_if(steps.begin(), steps.end(), [&](const StepResult& s) { return s.name == step; });
  return it == steps.end() ? nullptr : &*it;
}

}  // namespace kerchunk::bench
