#include "bench/set_runner.h"

#include <algorithm>

#include "kerchunk/bench/measure.h"
#include "kerchunk/bench/synthetic_refs.h"

namespace kerchunk::bench::internal {

void RunContext::Progress(const std::string& message) const {
  if (!options.quiet) err << "kerchunk bench: " << message << "\n" << std::flush;
}

Status Measure(StepResult& step, unsigned repeat, const std::function<void()>& before,
               const std::function<Status()>& run, const std::function<Status()>& after) {
  step.seconds.clear();
  step.cpu_seconds.clear();
  for (unsigned r = 0; r < std::max(1u, repeat); ++r) {
    if (before) before();
    StepMeter meter;
    Status status = run();
    meter.Stop();
    KERCHUNK_RETURN_IF_ERROR(status.Annotate(step.name));
    step.seconds.push_back(meter.seconds());
    step.cpu_seconds.push_back(meter.cpu_seconds());
    if (r == 0) step.start_rss_bytes = meter.start_rss_bytes();
    step.peak_rss_bytes = std::max(step.peak_rss_bytes, meter.peak_rss_bytes());
    step.per_step_peak = step.per_step_peak && meter.per_step_peak();
    if (after) KERCHUNK_RETURN_IF_ERROR(after().Annotate(step.name));
  }
  step.median_seconds = Median(step.seconds);
  step.median_cpu_seconds = Median(step.cpu_seconds);
  return OkStatus();
}

namespace {

void CountSet(const ReferenceSet& refs, SetReport& report) {
  report.chunks = refs.ChunkCount();
  report.keys = refs.entries.size() + report.chunks;
  report.arrays = 0;
  for (const Entry& e : refs.entries) report.arrays += ZarrayKeyArrayPath(e.key) ? 1 : 0;
  if (report.files == 0) report.files = refs.urls.size();
  report.length_entropy_bits = ChunkLengthEntropyBits(refs);
}

}  // namespace

Result<SetReport> RunSet(SetInput input, const RunContext& ctx) {
  SetReport report;
  report.name = input.name;
  report.source = input.source;
  report.generate_seconds = input.generate_seconds;
  report.files = input.data_files.size();
  SetState state;
  if (!input.data_files.empty()) {
    KERCHUNK_RETURN_IF_ERROR(RunScanStep(input, ctx, state, report));
  }
  KERCHUNK_RETURN_IF_ERROR(RunReferenceSteps(input, ctx, state, report));
  CountSet(state.refs, report);
  KERCHUNK_RETURN_IF_ERROR(RunLookupStep(ctx, state, report));
  KERCHUNK_RETURN_IF_ERROR(RunVerifyStep(ctx, state, report));
  if (ctx.options.compressors) {
    KERCHUNK_RETURN_IF_ERROR(MeasureCompressedSizes(ctx, state, report));
  }
  if (ctx.options.xarray) {
    KERCHUNK_RETURN_IF_ERROR(RunXarrayOpenStep(ctx, state, report));
  }
  if (ctx.options.python && !input.data_files.empty()) {
    KERCHUNK_RETURN_IF_ERROR(RunPythonComparison(input, ctx, state, report));
  } else if (ctx.options.python) {
    report.notes.push_back("python: not compared (no data files to scan)");
  }
  return report;
}

}  // namespace kerchunk::bench::internal
