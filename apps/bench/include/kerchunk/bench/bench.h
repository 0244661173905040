// `kerchunk bench`: how much smaller, how much faster, and does it still read the same.
//
// For each reference set (data files to scan, a Kerchunk JSON file, or a generated set) one run
// measures the whole life of an index: scan (when there are data files), load and write of the
// JSON, pack, open and full unpack of the packed index, random key lookups and verify. Every
// step's output is checked against the reference before it is timed (the scan against what the
// generator wrote, unpack(pack(x)) against x, each looked-up key against its reference, verify
// passing), and the run stops with an error naming the step and the first difference otherwise.
// Scaling mode runs the same synthetic set at growing sizes and plots time and size against the
// number of references.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <vector>

#include "kerchunk/bench/netcdf_series.h"
#include "kerchunk/bench/python_compare.h"
#include "kerchunk/bench/report.h"
#include "kerchunk/bench/xarray_open.h"
#include "kerchunk/io/byte_source.h"
#include "kerchunk/refs/reference_set.h"
#include "kerchunk/util/status.h"

namespace kerchunk::bench {

/// A generated set: NetCDF-4 files written with netCDF-C (then scanned), or with refs_only the
/// reference set such a scan would give, built directly (no data files: no scan, no verify).
struct SyntheticSpec {
  NetcdfSeriesOptions series;
  bool refs_only = false;
  uint32_t url_length = 0;  ///< refs_only: URL length (0: as generated, ~110 characters)
};

/// Parses "FILESxCHUNKS" (e.g. "1000x1000"; numbers may be written 1e4): files and chunks of
/// each variable per file. InvalidArgument explains the form.
Result<std::pair<uint32_t, uint64_t>> ParseSyntheticSize(std::string_view text);

/// Parses a comma-separated list of reference counts ("1e4,1e5,1e6"), each >= 1.
Result<std::vector<uint64_t>> ParseScaleList(std::string_view text);

enum class OutputFormat { kText, kJson };

/// Test hooks: a way to break a step on purpose and see the result check catch it.
struct BenchHooks {
  /// Called with the name of a step ("scan", "load", "write", "unpack", "lookup") and its
  /// output reference set right before that output is checked.
  std::function<void(std::string_view step, ReferenceSet& output)> before_check;
};

struct BenchOptions {
  /// Data files, folders or patterns (one set, scanned), or Kerchunk JSON files (one set each).
  /// Remote inputs (http(s):// URLs, s3:// objects, prefixes and patterns) as scan takes them.
  std::vector<std::string> inputs;
  /// How remote inputs are read (our scan; Python reads http(s):// through fsspec).
  io::SourceOptions source;
  /// The access log of the server of the remote inputs, in nginx's default "combined" format:
  /// the lines appended during each tool's scan are its requests, their $body_bytes_sent its
  /// bytes (docs/bench.md "Remote inputs"). "": Python's requests are unknown.
  std::string server_log;
  /// Each data input (folder or pattern) is its own set instead of all forming one.
  bool each = false;
  std::optional<SyntheticSpec> synthetic;
  /// Scaling mode: target reference counts; the synthetic set's files grow to reach each.
  std::vector<uint64_t> scale;
  /// Where generated files and outputs go; "": a temporary directory removed at the end.
  std::string work_dir;
  bool keep_work_dir = false;
  unsigned repeat = 1;  ///< timed runs per step; the median is reported
  unsigned jobs = 0;    ///< scan threads (0: hardware threads)
  /// Dimension the scan (and Python kerchunk) concatenates files along; empty: the scan's
  /// default (the first file's unlimited dimension, else "time").
  std::string concat_dim;
  uint64_t lookups = 100000;  ///< random keys looked up per repeat
  bool compressors = true;    ///< measure gzip -6 and zstd -19 sizes when installed
  /// Larger JSON files are not compressed (zstd -19 runs at a few MB/s: 10^7 references,
  /// 1.3 GB of JSON, would take longer than everything else together).
  uint64_t compress_limit_bytes = uint64_t{512} << 20;
  bool verify_deep = false;                    ///< verify also decodes every chunk (verify --deep)
  std::optional<PythonCompareOptions> python;  ///< compare with Python kerchunk
  /// Time xr.open_dataset through fsspec and through kerchunk_packed (xarray_open.h).
  std::optional<XarrayOpenOptions> xarray;
  /// Runs of Python kerchunk (its scan takes minutes where ours takes seconds; one run is
  /// usually enough for ratios of that size).
  unsigned python_repeat = 1;
  std::string plot = "kerchunk-bench-scale.svg";  ///< scaling mode plot (SVG)
  OutputFormat format = OutputFormat::kText;
  /// Also write the JSON report to this file ("" for none), whatever `format` is.
  std::string json_output;
  bool quiet = false;  ///< no progress lines on `err`
  BenchHooks hooks;
};

/// Runs the benchmark and writes the table (or JSON) to `out`; progress goes to `err` unless
/// quiet. InvalidArgument for usage errors (no input, both inputs and --synthetic, --scale
/// without --synthetic, ...), DataLoss when a result check fails, and the errors of the steps.
Result<BenchReport> RunBench(const BenchOptions& options, std::ostream& out, std::ostream& err);

}  // namespace kerchunk::bench
