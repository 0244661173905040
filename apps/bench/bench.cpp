// RunBench: which reference sets a run measures (given files, generated sets, a scaling
// series), where their scratch files go, and the output.
#include "kerchunk/bench/bench.h"

#include <fmt/format.h>
#include <stdlib.h>

#include <chrono>
#include <cmath>
#include <fstream>
#include <sstream>

#include "bench/bench_internal.h"
#include "bench/set_runner.h"
#include "kerchunk/bench/synthetic_set.h"
#include "kerchunk/scan/input_list.h"
#include "kerchunk/scan/remote_inputs.h"
#include "kerchunk/util/file_io.h"
#include "util/temp_registry.h"

namespace kerchunk::bench {
namespace {

namespace fs = std::filesystem;
using internal::RunContext;
using internal::SetInput;

// The scratch directory of a run: the one given, or a temporary one removed at the end.
class WorkDir {
 public:
  static Result<WorkDir> Make(const BenchOptions& options) {
    WorkDir dir;
    std::error_code ec;
    if (options.work_dir.empty()) {
      const char* tmp = std::getenv("TMPDIR");
      std::string pattern = std::string(tmp && *tmp ? tmp : "/tmp") + "/kerchunk-bench-XXXXXX";
      if (::mkdtemp(pattern.data()) == nullptr) {
        return IoError("cannot create a temporary directory {}", pattern);
      }
      dir.path_ = pattern;
      dir.remove_ = !options.keep_work_dir;
      // Generated files can be gigabytes: Ctrl-C or SIGTERM must not leave them behind.
      if (dir.remove_) dir.signal_slot_ = kerchunk::internal::RegisterTempPath(pattern, kTree);
    } else {
      dir.path_ = fs::absolute(options.work_dir, ec);
      fs::create_directories(dir.path_, ec);
      if (ec) return IoError("--work-dir {}: {}", options.work_dir, ec.message());
    }
    return dir;
  }
  WorkDir(WorkDir&& o) noexcept
      : path_(std::move(o.path_)),
        remove_(std::exchange(o.remove_, false)),
        signal_slot_(std::exchange(o.signal_slot_, -1)) {}
  ~WorkDir() {
    std::error_code ec;
    if (remove_) fs::remove_all(path_, ec);
    kerchunk::internal::UnregisterTempPath(signal_slot_);
  }
  const fs::path& path() const { return path_; }

 private:
  WorkDir() = default;
  static constexpr kerchunk::internal::TempKind kTree = kerchunk::internal::TempKind::kTree;
  fs::path path_;
  bool remove_ = false;
  int signal_slot_ = -1;  ///< see RemoveTemporaryOutputs
};

Result<fs::path> SetDirectory(const fs::path& root, const std::string& name) {
  fs::path dir = root / name;
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) return IoError("{}: {}", dir.string(), ec.message());
  return dir;
}

// A Kerchunk JSON file starts with '{' (after white space); NetCDF and HDF5 files never do.
bool IsKerchunkJson(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  char c = 0;
  while (in.get(c)) {
    if (c != ' ' && c != '\n' && c != '\r' && c != '\t') return c == '{';
  }
  return false;
}

Result<std::vector<SetInput>> InputSets(const BenchOptions& options) {
  std::vector<SetInput> sets;
  std::vector<std::string> data_inputs;
  for (const std::string& input : options.inputs) {
    std::error_code ec;
    if (fs::is_regular_file(input, ec) && IsKerchunkJson(input)) {
      sets.push_back({.name = input, .source = "kerchunk json", .json_path = input});
    } else {
      data_inputs.push_back(input);
    }
  }
  if (!sets.empty() && !data_inputs.empty()) {
    return InvalidArgumentError("give either data files or Kerchunk JSON files, not both");
  }
  std::vector<std::vector<std::string>> groups;
  if (options.each) {
    for (const std::string& input : data_inputs) groups.push_back({input});
  } else if (!data_inputs.empty()) {
    groups.push_back(data_inputs);
  }
  for (const auto& group : groups) {
    // Local inputs are expanded together (folders, patterns); remote ones as scan lists them.
    std::vector<std::string> local, remote;
    for (const std::string& input : group)
      (io::IsRemoteUrl(input) ? remote : local).push_back(input);
    std::vector<std::string> files;
    if (!local.empty()) {
      KERCHUNK_ASSIGN_OR_RETURN(files, ExpandInputs(local));
    }
    for (const std::string& input : remote) {
      KERCHUNK_ASSIGN_OR_RETURN(std::vector<std::string> urls,
                                ExpandRemoteInput(input, options.source));
      files.insert(files.end(), urls.begin(), urls.end());
    }
    std::string name = group.size() == 1
                           ? group.front()
                           : fmt::format("{} and {} more", group.front(), group.size() - 1);
    sets.push_back({.name = name, .source = "netcdf files", .data_files = std::move(files)});
  }
  return sets;
}

std::string SyntheticName(const SyntheticSpec& spec) {
  const NetcdfSeriesOptions& s = spec.series;
  return fmt::format("synthetic {} files x {} chunks x {} vars{}", s.files, s.chunks_per_file,
                     s.variables, spec.refs_only ? " (references only)" : "");
}

Result<SetInput> GenerateSet(const SyntheticSpec& spec, const RunContext& ctx) {
  SetInput input;
  input.name = SyntheticName(spec);
  auto start = std::chrono::steady_clock::now();
  if (spec.refs_only) {
    ctx.Progress("generating " + input.name);
    input.source = "generated references";
    KERCHUNK_ASSIGN_OR_RETURN(input.generated,
                              MakeSyntheticReferenceSet(spec.series, spec.url_length));
  } else {
    ctx.Progress("writing " + input.name + " with netCDF-C");
    input.source = "netcdf files";
    KERCHUNK_ASSIGN_OR_RETURN(NetcdfSeries series,
                              WriteNetcdfSeries(ctx.dir / "files", spec.series));
    input.data_files = series.paths;
    input.series = std::move(series);
  }
  input.generate_seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return input;
}

// The synthetic set grown to about `target` chunk references by adding files.
SyntheticSpec ScaledSpec(const SyntheticSpec& base, uint64_t target) {
  SyntheticSpec spec = base;
  const NetcdfSeriesOptions& s = base.series;
  const double per_file =
      static_cast<double>(s.chunks_per_file) * (s.variables - s.missing);  // land not written
  spec.series.files = static_cast<uint32_t>(
      std::max<double>(1, std::llround(static_cast<double>(target) / per_file)));
  return spec;
}

std::string ScaleLabel(uint64_t n) {
  const int exponent = static_cast<int>(std::floor(std::log10(static_cast<double>(n))));
  const double mantissa = n / std::pow(10.0, exponent);
  if (exponent >= 3 && std::abs(mantissa - std::round(mantissa)) < 1e-9) {
    return fmt::format("{}e{}", std::llround(mantissa), exponent);
  }
  return std::to_string(n);
}

Status RunSets(const BenchOptions& options, const WorkDir& work, std::ostream& err,
               BenchReport& report) {
  if (!options.scale.empty()) {
    report.scaling = true;
    for (uint64_t target : options.scale) {
      const std::string label = ScaleLabel(target);
      KERCHUNK_ASSIGN_OR_RETURN(fs::path dir, SetDirectory(work.path(), "scale-" + label));
      RunContext ctx{options, dir, err};
      KERCHUNK_ASSIGN_OR_RETURN(SetInput input,
                                GenerateSet(ScaledSpec(*options.synthetic, target), ctx));
      input.name = label;
      KERCHUNK_ASSIGN_OR_RETURN(SetReport set, internal::RunSet(std::move(input), ctx));
      report.sets.push_back(std::move(set));
      std::error_code ec;
      if (!options.keep_work_dir) fs::remove_all(dir, ec);  // the next size needs the disk
    }
    return OkStatus();
  }
  std::vector<SetInput> inputs;
  if (!options.synthetic) {
    KERCHUNK_ASSIGN_OR_RETURN(inputs, InputSets(options));
  }
  const size_t count = options.synthetic ? 1 : inputs.size();
  for (size_t i = 0; i < count; ++i) {
    KERCHUNK_ASSIGN_OR_RETURN(fs::path dir, SetDirectory(work.path(), fmt::format("set-{}", i)));
    RunContext ctx{options, dir, err};
    SetInput input;
    if (options.synthetic) {
      KERCHUNK_ASSIGN_OR_RETURN(input, GenerateSet(*options.synthetic, ctx));
    } else {
      input = std::move(inputs[i]);
    }
    KERCHUNK_ASSIGN_OR_RETURN(SetReport set, internal::RunSet(std::move(input), ctx));
    report.sets.push_back(std::move(set));
  }
  return OkStatus();
}

}  // namespace

Result<BenchReport> RunBench(const BenchOptions& options, std::ostream& out, std::ostream& err) {
  KERCHUNK_RETURN_IF_ERROR(internal::ValidateBenchOptions(options));
  // Minutes of C++ steps are thrown away if Python kerchunk turns out missing at the end.
  if (options.python) KERCHUNK_RETURN_IF_ERROR(CheckPythonKerchunk(*options.python));
  if (options.xarray) KERCHUNK_RETURN_IF_ERROR(CheckXarrayOpen(*options.xarray));
  BenchReport report;
  report.machine = DescribeMachine();
  report.repeat = options.repeat;
  report.jobs = options.jobs == 0 ? report.machine.cores : options.jobs;
  KERCHUNK_ASSIGN_OR_RETURN(WorkDir work, WorkDir::Make(options));
  KERCHUNK_RETURN_IF_ERROR(RunSets(options, work, err, report));
  if (report.scaling) {
    report.plot_path = options.plot;
    KERCHUNK_RETURN_IF_ERROR(internal::WriteScalingPlot(report, options.plot));
  }
  if (options.format == OutputFormat::kJson) {
    WriteBenchJson(report, out);
  } else {
    WriteBenchText(report, out);
  }
  if (!options.json_output.empty()) {
    std::ostringstream json;
    WriteBenchJson(report, json);
    KERCHUNK_RETURN_IF_ERROR(WriteFileAtomically(options.json_output, json.str()));
  }
  return report;
}

}  // namespace kerchunk::bench
