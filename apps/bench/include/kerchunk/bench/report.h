// The results of `kerchunk bench`: per reference set, the counts, sizes and the measurement of
// every step; written as one table for people or one JSON document for machines.
#pragma once

#include <cstdint>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "kerchunk/bench/machine.h"
#include "kerchunk/bench/python_compare.h"
#include "kerchunk/bench/xarray_open.h"

namespace kerchunk::bench {

/// One measured step (medians over the repeats).
struct StepResult {
  std::string name;    ///< "scan", "load", "write", "pack", "open", "unpack", "lookup", "verify"
  uint64_t refs = 0;   ///< references the step produced, read or checked
  uint64_t bytes = 0;  ///< bytes it read or wrote (see docs/bench.md for each step)
  std::vector<double> seconds;  ///< wall clock, one per repeat
  double median_seconds = 0;
  std::vector<double> cpu_seconds;  ///< CPU time of the process (all threads), one per repeat
  double median_cpu_seconds = 0;
  uint64_t start_rss_bytes = 0;  ///< resident memory when the step started (first repeat)
  uint64_t peak_rss_bytes = 0;   ///< peak resident memory during the step (max over repeats)
  bool per_step_peak = true;     ///< false: the process's peak so far (reset refused)

  double refs_per_second() const { return median_seconds > 0 ? refs / median_seconds : 0; }
  double bytes_per_second() const { return median_seconds > 0 ? bytes / median_seconds : 0; }
  double nanoseconds_per_ref() const { return refs > 0 ? median_seconds * 1e9 / refs : 0; }
  /// References per second of CPU time: the rate of one core.
  double refs_per_cpu_second() const {
    return median_cpu_seconds > 0 ? refs / median_cpu_seconds : 0;
  }
};

/// Latency of single-key lookups in a packed index (PackedIndex::Resolve).
struct LookupLatency {
  uint64_t keys = 0;  ///< lookups per repeat
  double median_ns = 0;
  double p99_ns = 0;
};

struct Sizes {
  uint64_t json = 0;             ///< Kerchunk JSON
  uint64_t packed = 0;           ///< `kerchunk pack`
  uint64_t packed_readable = 0;  ///< `kerchunk pack --readable`
  std::optional<uint64_t> gzip;  ///< gzip -6 of the JSON, when gzip is installed
  std::optional<uint64_t> zstd;  ///< zstd -19 of the JSON, when zstd is installed
};

/// Python kerchunk beside ours on the same files (see python_compare.h).
struct PythonComparison {
  PythonResult python;
  uint64_t their_chunks = 0;      ///< chunk references in kerchunk's JSON
  uint64_t differing_chunks = 0;  ///< chunk keys whose reference differs from ours (or is absent)
  bool comparable = false;        ///< equal chunk counts: ratios are reported only then
  double our_scan_seconds = 0;
  double our_load_seconds = 0;  ///< our JSON reader on our JSON
};

/// Requests and bytes fetched from a server; unset when not known.
struct FetchCounts {
  std::optional<uint64_t> requests;
  std::optional<uint64_t> bytes;
};

/// A scan of remote (http(s):// or s3://) files, ours beside Python kerchunk's over fsspec:
/// wall time, and what each fetched. Ours is counted by the byte sources and, with
/// --server-log, in the server's access log; Python's only in the log (else unknown).
struct RemoteScan {
  double our_seconds = 0;               ///< median of our timed scans
  FetchCounts ours;                     ///< the byte sources' count, of the checked scan
  FetchCounts ours_logged;              ///< log lines appended during the checked scan
  double median_requests_per_file = 0;  ///< ours, by the byte sources
  /// Python kerchunk's scan (median of --python-repeat runs); unset without --compare-python.
  std::optional<double> python_seconds;
  FetchCounts python_logged;  ///< log lines appended during Python's runs, per run
  std::string server_log;     ///< the access log read ("" without --server-log)
};

/// Everything measured on one reference set.
struct SetReport {
  std::string name;     ///< what was benchmarked ("synthetic 1000 x 1000", a folder, a JSON file)
  std::string source;   ///< "netcdf files", "kerchunk json" or "generated references"
  uint64_t files = 0;   ///< data files (scanned) or distinct URLs
  uint64_t arrays = 0;  ///< arrays with a chunk grid
  uint64_t chunks = 0;  ///< chunk references
  uint64_t keys = 0;    ///< all keys
  uint64_t data_bytes = 0;  ///< size of the scanned files (0 without scan)
  double gfactor = 0;       ///< share of chunk slots holding the modal length (pack's measure)
  double length_entropy_bits = 0;  ///< zero-order entropy of the chunk lengths, bits per length
  double generate_seconds = 0;     ///< writing the synthetic files or building the set (once)
  Sizes sizes;
  std::vector<StepResult> steps;
  LookupLatency lookup;
  std::optional<PythonComparison> comparison;
  std::optional<XarrayOpenResult> xarray_open;  ///< --xarray-open
  std::optional<RemoteScan> remote;             ///< the inputs were remote
  std::vector<std::string> notes;               ///< e.g. "verify: skipped (no data files)"

  const StepResult* FindStep(std::string_view step) const;
};

/// A whole run: machine, settings and one report per set (per size in scaling mode).
struct BenchReport {
  MachineInfo machine;
  unsigned repeat = 1;
  unsigned jobs = 1;     ///< scan threads
  bool scaling = false;  ///< rows are sizes of one synthetic set
  std::vector<SetReport> sets;
  std::string plot_path;  ///< scaling mode: the plot written
};

/// The tables for people: per set the counts, sizes and one row per step; in scaling mode one
/// row per size with nanoseconds per reference, so linear growth shows as constant columns.
void WriteBenchText(const BenchReport& report, std::ostream& out);

/// One JSON object with every figure (seconds, bytes, rates, ratios), for scripts.
void WriteBenchJson(const BenchReport& report, std::ostream& out);

}  // namespace kerchunk::bench
