// The bench results as one JSON document for scripts: raw seconds and bytes plus the derived
// rates and ratios, so that a consumer can check one against the other.
#include "kerchunk/bench/report.h"
#include "kerchunk/json/json_value.h"

namespace kerchunk::bench {
namespace {

using json::Value;

Value U(uint64_t n) { return Value::Uint(n); }
Value D(double d) { return Value::Double(d); }
Value S(std::string s) { return Value::String(std::move(s)); }

double Ratio(uint64_t a, uint64_t b) {
  return b == 0 ? 0 : static_cast<double>(a) / static_cast<double>(b);
}

Value StepJson(const StepResult& step) {
  Value v = Value::MakeObject();
  v.Set("name", S(step.name));
  v.Set("refs", U(step.refs));
  v.Set("bytes", U(step.bytes));
  Value runs = Value::MakeArray();
  for (double s : step.seconds) runs.Push(D(s));
  v.Set("seconds", std::move(runs));
  v.Set("median_seconds", D(step.median_seconds));
  Value cpu = Value::MakeArray();
  for (double s : step.cpu_seconds) cpu.Push(D(s));
  v.Set("cpu_seconds", std::move(cpu));
  v.Set("median_cpu_seconds", D(step.median_cpu_seconds));
  v.Set("refs_per_cpu_second", D(step.refs_per_cpu_second()));
  v.Set("refs_per_second", D(step.refs_per_second()));
  v.Set("bytes_per_second", D(step.bytes_per_second()));
  v.Set("ns_per_ref", D(step.nanoseconds_per_ref()));
  v.Set("start_rss_bytes", U(step.start_rss_bytes));
  v.Set("peak_rss_bytes", U(step.peak_rss_bytes));
  v.Set("per_step_peak", Value::Bool(step.per_step_peak));
  return v;
}

Value SizesJson(const Sizes& sizes) {
  Value v = Value::MakeObject();
  v.Set("json", U(sizes.json));
  v.Set("packed", U(sizes.packed));
  v.Set("packed_readable", U(sizes.packed_readable));
  v.Set("gzip", sizes.gzip ? U(*sizes.gzip) : Value::Null());
  v.Set("zstd", sizes.zstd ? U(*sizes.zstd) : Value::Null());
  Value ratios = Value::MakeObject();  // JSON size / each size: how many times smaller
  ratios.Set("packed", D(Ratio(sizes.json, sizes.packed)));
  ratios.Set("packed_readable", D(Ratio(sizes.json, sizes.packed_readable)));
  ratios.Set("gzip", sizes.gzip ? D(Ratio(sizes.json, *sizes.gzip)) : Value::Null());
  ratios.Set("zstd", sizes.zstd ? D(Ratio(sizes.json, *sizes.zstd)) : Value::Null());
  v.Set("json_over", std::move(ratios));
  return v;
}

// Ratios over route (a), fsspec: > 1 means that route is faster or smaller.
Value XarrayOpenJson(const XarrayOpenResult& x) {
  Value v = Value::MakeObject();
  v.Set("selection", S(x.selection));
  v.Set("versions", S(x.versions));
  Value runs = Value::MakeArray();
  for (const XarrayOpenRun& r : x.runs) {
    Value run = Value::MakeObject();
    run.Set("route", S(r.route));
    run.Set("open_seconds", D(r.open_seconds));
    run.Set("select_seconds", D(r.select_seconds));
    run.Set("start_rss_bytes", U(r.start_rss_bytes));
    run.Set("peak_rss_bytes", U(r.peak_rss_bytes));
    const XarrayOpenRun& a = x.runs.front();
    run.Set("fsspec_over_this_open_time",
            D(r.open_seconds > 0 ? a.open_seconds / r.open_seconds : 0));
    run.Set("fsspec_over_this_peak_rss", D(Ratio(a.peak_rss_bytes, r.peak_rss_bytes)));
    runs.Push(std::move(run));
  }
  v.Set("runs", std::move(runs));
  return v;
}

Value ComparisonJson(const PythonComparison& c, const SetReport& s) {
  const PythonResult& p = c.python;
  Value v = Value::MakeObject();
  v.Set("kerchunk_version", S(p.version));
  v.Set("python_version", S(p.python));
  v.Set("kerchunk_path", S(p.search_path));
  v.Set("real_ujson", Value::Bool(p.real_ujson));
  v.Set("scan_seconds", D(p.scan_seconds));
  v.Set("translate_seconds", D(p.translate_seconds));
  v.Set("combine_seconds", D(p.combine_seconds));
  v.Set("write_seconds", D(p.write_seconds));
  v.Set("json_bytes", U(p.json_bytes));
  v.Set("load_theirs_seconds", D(p.load_theirs_seconds));
  v.Set("load_ours_seconds", D(p.load_ours_seconds));
  v.Set("peak_rss_bytes", U(p.peak_rss_bytes));
  v.Set("their_chunks", U(c.their_chunks));
  v.Set("differing_chunks", U(c.differing_chunks));
  v.Set("comparable", Value::Bool(c.comparable));
  v.Set("our_scan_seconds", D(c.our_scan_seconds));
  v.Set("our_load_seconds", D(c.our_load_seconds));
  if (c.comparable) {
    Value ratios = Value::MakeObject();  // Python / ours: > 1 means ours is faster or smaller
    const double their_scan = p.scan_seconds + p.write_seconds;
    ratios.Set("scan_time", D(c.our_scan_seconds > 0 ? their_scan / c.our_scan_seconds : 0));
    ratios.Set("json_size", D(Ratio(p.json_bytes, s.sizes.json)));
    ratios.Set("json_vs_packed_size", D(Ratio(p.json_bytes, s.sizes.packed)));
    ratios.Set("load_time",
               D(c.our_load_seconds > 0 ? p.load_theirs_seconds / c.our_load_seconds : 0));
    v.Set("python_over_ours", std::move(ratios));
  }
  return v;
}

Value FetchJson(const FetchCounts& c) {
  Value v = Value::MakeObject();
  v.Set("requests", c.requests ? U(*c.requests) : Value::Null());
  v.Set("bytes", c.bytes ? U(*c.bytes) : Value::Null());
  return v;
}

// Null figures are unknown (no --server-log, no --compare-python).
Value RemoteJson(const RemoteScan& r) {
  Value v = Value::MakeObject();
  v.Set("our_seconds", D(r.our_seconds));
  v.Set("ours", FetchJson(r.ours));
  v.Set("ours_logged", FetchJson(r.ours_logged));
  v.Set("median_requests_per_file", D(r.median_requests_per_file));
  v.Set("python_seconds", r.python_seconds ? D(*r.python_seconds) : Value::Null());
  v.Set("python_logged", FetchJson(r.python_logged));
  v.Set("python_over_ours_time", r.python_seconds && r.our_seconds > 0
                                     ? D(*r.python_seconds / r.our_seconds)
                                     : Value::Null());
  v.Set("server_log", S(r.server_log));
  return v;
}

Value SetJson(const SetReport& s) {
  Value v = Value::MakeObject();
  v.Set("name", S(s.name));
  v.Set("source", S(s.source));
  v.Set("files", U(s.files));
  v.Set("arrays", U(s.arrays));
  v.Set("chunks", U(s.chunks));
  v.Set("keys", U(s.keys));
  v.Set("data_bytes", U(s.data_bytes));
  v.Set("gfactor", D(s.gfactor));
  v.Set("length_entropy_bits", D(s.length_entropy_bits));
  v.Set("generate_seconds", D(s.generate_seconds));
  v.Set("sizes", SizesJson(s.sizes));
  Value steps = Value::MakeArray();
  for (const StepResult& step : s.steps) steps.Push(StepJson(step));
  v.Set("steps", std::move(steps));
  Value lookup = Value::MakeObject();
  lookup.Set("keys", U(s.lookup.keys));
  lookup.Set("median_ns", D(s.lookup.median_ns));
  lookup.Set("p99_ns", D(s.lookup.p99_ns));
  v.Set("lookup_latency", std::move(lookup));
  v.Set("python", s.comparison ? ComparisonJson(*s.comparison, s) : Value::Null());
  v.Set("xarray_open", s.xarray_open ? XarrayOpenJson(*s.xarray_open) : Value::Null());
  v.Set("remote_scan", s.remote ? RemoteJson(*s.remote) : Value::Null());
  Value notes = Value::MakeArray();
  for (const std::string& note : s.notes) notes.Push(S(note));
  v.Set("notes", std::move(notes));
  return v;
}

Value MachineJson(const MachineInfo& m) {
  Value v = Value::MakeObject();
  v.Set("cpu", S(m.cpu));
  v.Set("cores", U(m.cores));
  v.Set("memory_bytes", U(m.memory_bytes));
  v.Set("kernel", S(m.kernel));
  v.Set("compiler", S(m.compiler));
  v.Set("load_average", S(m.load_average));
  return v;
}

}  // namespace

void WriteBenchJson(const BenchReport& report, std::ostream& out) {
  Value v = Value::MakeObject();
  v.Set("machine", MachineJson(report.machine));
  v.Set("repeat", U(report.repeat));
  v.Set("jobs", U(report.jobs));
  v.Set("scaling", Value::Bool(report.scaling));
  v.Set("plot", report.plot_path.empty() ? Value::Null() : S(report.plot_path));
  Value sets = Value::MakeArray();
  for (const SetReport& s : report.sets) sets.Push(SetJson(s));
  v.Set("sets", std::move(sets));
  out << v.Dump() << "\n";
}

}  // namespace kerchunk::bench
