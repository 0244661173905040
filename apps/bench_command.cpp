// `kerchunk bench`: parses the options into BenchOptions and calls RunBench
// (kerchunk/bench/bench.h).
#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <iostream>
#include <memory>

#include "command.h"
#include "input_kind.h"
#include "kerchunk/bench/bench.h"
#include "option_checks.h"
#include "output_guard.h"
#include "source_options.h"

namespace kerchunk::cli {
namespace {

constexpr const char* kBenchExamples = R"(Examples:
  kerchunk bench --synthetic 1000x1000                    # 1,000 NetCDF-4 files, 3 variables
  kerchunk bench --synthetic 100x1000 --gfactor 0.4 --missing 0.1 --vars 3 --repeat 5
  kerchunk bench --synthetic 1000x1000 --refs-only --url-length 120
  kerchunk bench --synthetic 10x1000 --refs-only --scale 1e4,1e5,1e6,1e7 --plot scale.svg
  kerchunk bench 'archive/era5/*.nc' --compare-python ~/src/kerchunk-0.2.2
  kerchunk bench https://host/d/a.nc https://host/d/b.nc --compare-python DIR \
      --server-log /var/log/nginx/access.log   # remote scan: both tools' requests
  kerchunk bench --synthetic 1000x1000 --xarray-open build/python
  kerchunk bench --each ../shared/data/timeseries/*/ --format json > timeseries.json
  kerchunk bench refs.json

Every step's output is checked before it is timed (the scan against what was generated,
unpack(pack(x)) == x, each looked-up key, verify passing); a failed check stops the run.
Columns and methods are described in docs/bench.md.
Exit status: 0 success; 2 usage error, unreadable input or a failed result check;
130, 143, 129: stopped by Ctrl-C, SIGTERM or SIGHUP (the temporary output is removed).)";

struct BenchCommandState {
  bench::BenchOptions options;
  std::string synthetic;
  bool refs_only = false;
  bench::NetcdfSeriesOptions series;
  uint32_t url_length = 0;
  std::string scale;
  std::vector<std::string> compare_python;  // the DIR, when one was given
  bool compare_python_given = false;        // --compare-python, with or without DIR
  std::vector<std::string> xarray_open;     // the DIR, when one was given
  bool xarray_open_given = false;           // --xarray-open, with or without DIR
  std::string python = "/usr/bin/python3";
  bool no_compressors = false;
  std::string format = "text";
  SourceOptionsText source_text;
};

Status FinishOptions(BenchCommandState& s) {
  bench::BenchOptions& o = s.options;
  if (!s.synthetic.empty()) {
    KERCHUNK_ASSIGN_OR_RETURN(auto size, bench::ParseSyntheticSize(s.synthetic));
    s.series.files = size.first;
    s.series.chunks_per_file = size.second;
    o.synthetic = bench::SyntheticSpec{s.series, s.refs_only, s.url_length};
  } else if (s.refs_only || s.url_length != 0) {
    return InvalidArgumentError("--refs-only and --url-length need --synthetic FILESxCHUNKS");
  }
  if (!s.scale.empty()) {
    KERCHUNK_ASSIGN_OR_RETURN(o.scale, bench::ParseScaleList(s.scale));
  }
  if (s.compare_python_given) {
    bench::PythonCompareOptions python;
    if (!s.compare_python.empty()) python.kerchunk_path = s.compare_python.front();
    python.interpreter = s.python;
    o.python = python;
  }
  if (s.xarray_open_given) {
    bench::XarrayOpenOptions xarray;
    if (!s.xarray_open.empty()) xarray.package_path = s.xarray_open.front();
    xarray.interpreter = s.python;
    o.xarray = xarray;
  }
  bool reads_s3 = false;
  for (const std::string& input : o.inputs) reads_s3 |= input.starts_with("s3://");
  KERCHUNK_RETURN_IF_ERROR(FinishSourceOptions(s.source_text, reads_s3, o.source));
  const bool any_remote = std::any_of(o.inputs.begin(), o.inputs.end(),
                                      [](const std::string& i) { return io::IsRemoteUrl(i); });
  if (!o.server_log.empty() && !any_remote) {
    return InvalidArgumentError(
        "--server-log counts the requests of a remote scan: give http(s):// or s3:// inputs");
  }
  if (!o.server_log.empty() && !std::filesystem::is_regular_file(o.server_log)) {
    return InvalidArgumentError("--server-log {}: not a file (give the server's access log)",
                                o.server_log);
  }
  o.compressors = !s.no_compressors;
  o.format = s.format == "json" ? bench::OutputFormat::kJson : bench::OutputFormat::kText;
  for (const std::string& input : o.inputs) KERCHUNK_RETURN_IF_ERROR(CheckNotPacked(input));
  const std::vector<NamedOutput> outputs = {{"--json", o.json_output}, {"--plot", o.plot}};
  // The plot is written in scaling mode only; its default name need not be writable otherwise.
  KERCHUNK_RETURN_IF_ERROR(
      CheckOutputLocations(o.scale.empty() ? std::vector{outputs[0]} : outputs));
  if (!AnyOutputExists(outputs)) return OkStatus();
  return RefuseOutputsOverInputs(outputs, ExpandedInputs(o.inputs));
}

void AddSyntheticOptions(CLI::App& app, BenchCommandState& s) {
  app.add_option("--synthetic", s.synthetic,
                 "Benchmark a generated set of FILES daily NetCDF-4 files with CHUNKS chunks of "
                 "each variable per file")
      ->option_text("FILESxCHUNKS");
  app.add_flag("--refs-only", s.refs_only,
               "Generate the reference set directly instead of NetCDF files (no scan)");
  app.add_option("--gfactor", s.series.gfactor,
                 "Share of chunk slots holding an all-fill chunk of the modal length "
                 "(default 0.4)")
      ->option_text("G");
  app.add_option("--missing", s.series.missing,
                 "Share of the last variable's chunks never written, as land points of a sea "
                 "field (default 0.1)")
      ->option_text("P");
  app.add_option("--vars", s.series.variables, "Data variables per file (default 3)")
      ->check(WholeNumber(1, UINT32_MAX))
      ->option_text("V");
  app.add_option("--url-length", s.url_length,
                 "URL length of a --refs-only set (default: ~110 characters as generated)")
      ->check(WholeNumber(0, UINT32_MAX))
      ->option_text("L");
  app.add_option("--chunk-edge", s.series.chunk_edge,
                 "Chunks of the NetCDF files are 1 x E x E float32 (default 16)")
      ->check(WholeNumber(1, UINT32_MAX))
      ->option_text("E");
  app.add_option("--seed", s.series.seed, "Seed of the generators (default 1)")
      ->check(WholeNumber(0))
      ->option_text("N");
  app.add_option("--scale", s.scale,
                 "Scaling mode: run the synthetic set at these reference counts (files grow)")
      ->option_text("N1,N2,...");
  app.add_option("--plot", s.options.plot,
                 "Scaling mode: write the plot of time and size against references here (SVG)")
      ->option_text("FILE.svg");
}

void AddRunOptions(CLI::App& app, BenchCommandState& s) {
  bench::BenchOptions& o = s.options;
  app.add_option("inputs", o.inputs,
                 "Data files, folders or quoted patterns (scanned as one set), or refs.json "
                 "files (one set each)");
  app.add_flag("--each", o.each, "Each data folder or pattern is a set of its own");
  app.add_option("--repeat", o.repeat, "Timed runs of every step; medians are reported (default 1)")
      ->check(WholeNumber(1, UINT32_MAX))
      ->option_text("N");
  app.add_option("--concat-dim", o.concat_dim,
                 "Dimension to concatenate files along (default: scan's: the first unlimited "
                 "dimension, else time)")
      ->option_text("NAME");
  app.add_option("-j,--jobs", o.jobs, "Scan and verify threads (default: hardware threads)")
      ->check(ThreadCount())
      ->option_text("N");
  app.add_option("--lookups", o.lookups, "Random keys looked up per run (default 100000)")
      ->check(WholeNumber(1))
      ->option_text("N");
  app.add_flag("--verify-deep", o.verify_deep, "Verify also decodes every chunk (verify --deep)");
  app.add_flag("--no-compressors", s.no_compressors, "Do not measure gzip -6 / zstd -19 sizes");
  app.add_option("--compress-limit", o.compress_limit_bytes,
                 "Compress only JSON up to this many bytes (default 536870912: zstd -19 is slow)")
      ->check(WholeNumber(0))
      ->option_text("BYTES");
  app.add_option("--compare-python", s.compare_python,
                 "Also time Python kerchunk from this checkout (default: KERCHUNK_PYTHON_PATH)")
      ->expected(0, 1)
      ->option_text("[DIR]");
  app.add_option("--xarray-open", s.xarray_open,
                 "Also time xr.open_dataset via fsspec vs kerchunk_packed from this directory "
                 "(default: KERCHUNK_PACKED_PATH or the installed package)")
      ->expected(0, 1)
      ->option_text("[DIR]");
  app.add_option("--python", s.python, "Python interpreter for --compare-python and --xarray-open")
      ->option_text("EXE");
  app.add_option("--python-repeat", o.python_repeat,
                 "Runs of Python kerchunk; medians are reported (default 1)")
      ->check(WholeNumber(1, UINT32_MAX))
      ->option_text("N");
  AddSourceOptions(app, o.source, s.source_text);
  app.add_option("--server-log", o.server_log,
                 "With remote inputs: the server's access log (nginx combined format); the "
                 "lines each tool's scan appends are its requests and bytes")
      ->option_text("FILE");
  app.add_option("--work-dir", o.work_dir,
                 "Keep generated files and outputs here (default: a temporary directory, removed)")
      ->option_text("DIR");
  app.add_flag("--keep", o.keep_work_dir, "Keep the temporary directory");
  app.add_option("--format", s.format, "Output: text (tables) or json")
      ->check(CLI::IsMember({"text", "json"}));
  app.add_option("--json", o.json_output, "Also write the JSON report to FILE")
      ->option_text("FILE");
  app.add_flag("-q,--quiet", o.quiet, "No progress lines on standard error");
}

std::function<int()> SetUpBench(CLI::App& app) {
  auto state = std::make_shared<BenchCommandState>();
  app.footer(kBenchExamples);
  AddRunOptions(app, *state);
  AddSyntheticOptions(app, *state);
  return [state, &app] {
    state->compare_python_given = app.count("--compare-python") > 0;
    state->xarray_open_given = app.count("--xarray-open") > 0;
    if (Status s = FinishOptions(*state); !s.ok()) return ReportError("bench", s);
    Result<bench::BenchReport> report = bench::RunBench(state->options, std::cout, std::cerr);
    if (!report.ok()) return ReportError("bench", report.status());
    return kExitOk;
  };
}

}  // namespace

KERCHUNK_REGISTER_COMMAND(bench, Command{"bench",
                                         "Measure scan, pack, unpack, lookups and verify on "
                                         "files, a reference file or a generated set",
                                         SetUpBench});

}  // namespace kerchunk::cli
