// The scan step: `kerchunk scan` of the data files, exactly as the command runs it (list, walk
// every chunk index in parallel, combine, write the JSON), checked once and then timed.
#include <sstream>

#include "bench/server_log.h"
#include "bench/set_runner.h"
#include "kerchunk/bench/measure.h"
#include "kerchunk/commands/scan.h"
#include "kerchunk/json/kerchunk_json.h"
#include "kerchunk/refs/digest.h"
#include "kerchunk/util/file_io.h"

namespace kerchunk::bench::internal {
namespace {

ScanOptions MakeScanOptions(const SetInput& input, const RunContext& ctx,
                            const std::string& output) {
  ScanOptions options;
  options.inputs = input.data_files;
  options.output = output;
  options.threads = ctx.options.jobs;
  options.combine.concat_dim = ctx.options.concat_dim;
  options.source = ctx.options.source;
  options.quiet = true;
  return options;
}

bool HasRemoteFiles(const SetInput& input) {
  for (const std::string& f : input.data_files) {
    if (io::IsRemoteUrl(f)) return true;
  }
  return false;
}

// What our checked scan fetched, by the byte sources (each file's reads and combine's), and
// the median requests per file.
RemoteScan CountFetches(const RunSummary& summary) {
  RemoteScan remote;
  uint64_t requests = summary.combine_requests, bytes = summary.combine_bytes_fetched;
  std::vector<double> per_file;
  for (const FileCost& f : summary.files) {
    requests += f.requests;
    bytes += f.bytes_fetched;
    per_file.push_back(static_cast<double>(f.requests));
  }
  remote.ours = {requests, bytes};
  remote.median_requests_per_file = Median(per_file);
  return remote;
}

Result<RunSummary> ScanOnce(const ScanOptions& options) {
  std::istringstream in;
  std::ostringstream out, err;
  return RunScan(options, CommandStreams{in, out, err});
}

// The generator knows how many chunks of each variable it wrote; the scan must find them all.
Status CheckAgainstSeries(const NetcdfSeries& series, const ReferenceSet& refs) {
  for (size_t v = 0; v < series.variable_names.size(); ++v) {
    const std::string& name = series.variable_names[v];
    const ArrayRefs* array = refs.FindArray(name);
    const uint64_t found = array == nullptr ? 0 : array->size();
    if (found != series.chunks_written[v]) {
      return DataLossError("scan: variable {}: expected the {} chunks written, got {}", name,
                           series.chunks_written[v], found);
    }
  }
  return OkStatus();
}

Result<uint64_t> FileHash(const std::string& path) {
  KERCHUNK_ASSIGN_OR_RETURN(std::string text, ReadFileToString(path));
  return Xxh64(text);
}

}  // namespace

Status RunScanStep(const SetInput& input, const RunContext& ctx, SetState& state,
                   SetReport& report) {
  state.json_path = (ctx.dir / "scan.json").string();
  const ScanOptions options = MakeScanOptions(input, ctx, state.json_path);
  ctx.Progress("scan: checking the output for " + std::to_string(input.data_files.size()) +
               " files");
  const bool remote = HasRemoteFiles(input);
  const std::string& log = ctx.options.server_log;
  uint64_t log_start = 0;
  if (remote && !log.empty()) {
    KERCHUNK_ASSIGN_OR_RETURN(log_start, LogSize(log));
  }
  KERCHUNK_ASSIGN_OR_RETURN(RunSummary first, ScanOnce(options));
  if (remote) {
    report.remote = CountFetches(first);
    report.remote->server_log = log;
    if (!log.empty()) {
      KERCHUNK_ASSIGN_OR_RETURN(LogCounts logged, CountLogSince(log, log_start));
      report.remote->ours_logged = {logged.requests, logged.bytes};
    }
  }
  state.concat_dim = first.concat_dim.empty() ? "time" : first.concat_dim;
  KERCHUNK_ASSIGN_OR_RETURN(ReferenceSet scanned, ReadKerchunkFile(state.json_path));
  if (ctx.options.hooks.before_check) ctx.options.hooks.before_check("scan", scanned);
  if (input.series) KERCHUNK_RETURN_IF_ERROR(CheckAgainstSeries(*input.series, scanned));
  KERCHUNK_ASSIGN_OR_RETURN(const uint64_t expected_hash, FileHash(state.json_path));
  for (const FileCost& f : first.files) {
    if (f.remote) {
      report.data_bytes += f.file_size;
    } else {
      KERCHUNK_ASSIGN_OR_RETURN(uint64_t size, FileSize(f.path));
      report.data_bytes += size;
    }
  }

  ctx.Progress("scan: timing");
  StepResult step{.name = "scan"};
  step.refs = first.chunks;
  step.bytes = first.output_bytes;
  auto check_same_output = [&]() -> Status {
    KERCHUNK_ASSIGN_OR_RETURN(uint64_t hash, FileHash(state.json_path));
    if (hash != expected_hash) {
      return DataLossError("scan: a repeated scan wrote a different {}", state.json_path);
    }
    return OkStatus();
  };
  KERCHUNK_RETURN_IF_ERROR(Measure(
      step, ctx.options.repeat, nullptr, [&] { return ScanOnce(options).status(); },
      check_same_output));
  if (report.remote) report.remote->our_seconds = step.median_seconds;
  report.steps.push_back(std::move(step));
  return OkStatus();
}

}  // namespace kerchunk::bench::internal
