// Running the benchmark on one reference set: the steps, their result checks and their
// measurement. bench.cpp decides which sets there are; report_*.cpp print what this measures.
#pragma once

#include <filesystem>
#include <functional>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "kerchunk/bench/bench.h"
#include "kerchunk/pack/pack.h"
#include "kerchunk/pack/packed_index.h"

namespace kerchunk::bench::internal {

/// Where one set's references come from.
struct SetInput {
  std::string name;
  std::string source;                     ///< see SetReport::source
  std::vector<std::string> data_files;    ///< to scan (absolute paths)
  std::string json_path;                  ///< a given Kerchunk JSON file
  std::optional<ReferenceSet> generated;  ///< a generated set
  std::optional<NetcdfSeries> series;     ///< what the generator wrote, to check the scan
  double generate_seconds = 0;
};

struct RunContext {
  const BenchOptions& options;
  std::filesystem::path dir;  ///< this set's scratch directory (exists)
  std::ostream& err;
  void Progress(const std::string& message) const;
};

/// Times `run` options.repeat times, each preceded by `before` (untimed: drop the previous
/// output so it neither counts in memory nor in time) and followed by `after` (untimed: check
/// the output); stops at the first error. Fills seconds, median and memory of `step`.
Status Measure(StepResult& step, unsigned repeat, const std::function<void()>& before,
               const std::function<Status()>& run, const std::function<Status()>& after);

/// What the steps pass on to each other.
struct SetState {
  ReferenceSet refs;       ///< the checked reference set, as loaded from its JSON
  std::string json_path;   ///< its Kerchunk JSON file
  std::string concat_dim;  ///< of the scan (for the Python comparison)
  std::optional<pack::PackedText> packed;
};

/// The scan step (data files): one checked run, then the timed runs; leaves the JSON at
/// state.json_path. Checks the chunk counts of every variable against `input.series` when the
/// set was generated.
Status RunScanStep(const SetInput& input, const RunContext& ctx, SetState& state,
                   SetReport& report);

/// load, write, pack, open, unpack: the JSON and packed-index steps.
Status RunReferenceSteps(const SetInput& input, const RunContext& ctx, SetState& state,
                         SetReport& report);

/// Random single-key lookups in the packed index, each checked against the reference first.
Status RunLookupStep(const RunContext& ctx, const SetState& state, SetReport& report);

/// `kerchunk verify` of the JSON and of the packed index (referenced files checked where
/// their URLs are local paths).
Status RunVerifyStep(const RunContext& ctx, const SetState& state, SetReport& report);

/// gzip/zstd sizes of the JSON.
Status MeasureCompressedSizes(const RunContext& ctx, const SetState& state, SetReport& report);

/// Python kerchunk on the same data files, compared with our scan.
Status RunPythonComparison(const SetInput& input, const RunContext& ctx, const SetState& state,
                           SetReport& report);

/// xr.open_dataset through fsspec and through kerchunk_packed on the packed file and the JSON
/// (xarray_open.h); writes the packed file beside the JSON.
Status RunXarrayOpenStep(const RunContext& ctx, const SetState& state, SetReport& report);

/// All of the above for one set.
Result<SetReport> RunSet(SetInput input, const RunContext& ctx);

}  // namespace kerchunk::bench::internal
