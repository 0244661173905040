// What the packed index is compared with: the JSON under gzip and zstd, Python kerchunk's
// scan of the same files, and opening the JSON with xarray through fsspec.
#include <algorithm>

#include "bench/compressed_size.h"
#include "bench/server_log.h"
#include "bench/set_runner.h"
#include "kerchunk/json/kerchunk_json.h"
#include "kerchunk/util/file_io.h"

namespace kerchunk::bench::internal {
namespace {

// Chunk keys of `ours` whose reference in `theirs` is absent or different (URLs by string).
uint64_t CountDifferingChunks(const ReferenceSet& ours, const ReferenceSet& theirs) {
  uint64_t differing = 0;
  for (const ArrayRefs& a : ours.arrays) {
    const ArrayRefs* b = theirs.FindArray(a.path());
    if (b == nullptr) {
      differing += a.size();
      continue;
    }
    size_t j = 0;
    for (size_t i = 0; i < a.size(); ++i) {
      while (j < b->size() && b->chunk_index(j) < a.chunk_index(i)) ++j;
      if (j == b->size() || b->chunk_index(j) != a.chunk_index(i)) {
        ++differing;
        continue;
      }
      ChunkRef x = a.Get(i), y = b->Get(j);
      const bool same_url = x.kind == RefKind::kInline || ours.urls[x.url] == theirs.urls[y.url];
      if (x.kind != y.kind || !same_url || x.offset != y.offset || x.length != y.length ||
          x.data != y.data) {
        ++differing;
      }
    }
  }
  return differing;
}

}  // namespace

Status MeasureCompressedSizes(const RunContext& ctx, const SetState& state, SetReport& report) {
  if (report.sizes.json > ctx.options.compress_limit_bytes) {
    report.notes.push_back("gzip, zstd: not run on " + std::to_string(report.sizes.json) +
                           " bytes of JSON (over --compress-limit)");
    return OkStatus();
  }
  for (const Compressor& compressor : StandardCompressors()) {
    ctx.Progress(compressor.label + " of the JSON");
    KERCHUNK_ASSIGN_OR_RETURN(std::optional<uint64_t> size,
                              CompressedSize(compressor, state.json_path));
    if (!size) {
      report.notes.push_back(compressor.argv.front() + ": not installed, size not measured");
    }
    (compressor.argv.front() == "gzip" ? report.sizes.gzip : report.sizes.zstd) = size;
  }
  return OkStatus();
}

Status RunXarrayOpenStep(const RunContext& ctx, const SetState& state, SetReport& report) {
  if (!state.packed) return InternalError("xarray open: the pack step left no packed index");
  const std::string packed_path = (ctx.dir / "refs.packed.json").string();
  KERCHUNK_RETURN_IF_ERROR(WriteFileAtomically(packed_path, state.packed->text));
  ctx.Progress("xarray open: fsspec + zarr, kerchunk_packed on the packed file and the JSON");
  KERCHUNK_ASSIGN_OR_RETURN(
      report.xarray_open,
      RunXarrayOpen(state.json_path, packed_path, (ctx.dir / "xarray-open.config.json").string(),
                    *ctx.options.xarray));
  return OkStatus();
}

Status RunPythonComparison(const SetInput& input, const RunContext& ctx, const SetState& state,
                           SetReport& report) {
  ctx.Progress("python kerchunk: scanning " + std::to_string(input.data_files.size()) + " files");
  const std::string their_json = (ctx.dir / "python-kerchunk.json").string();
  const std::string& log = report.remote ? report.remote->server_log : std::string();
  uint64_t log_start = 0;
  if (!log.empty()) {
    KERCHUNK_ASSIGN_OR_RETURN(log_start, LogSize(log));
  }
  KERCHUNK_ASSIGN_OR_RETURN(
      PythonResult python,
      RunPythonKerchunk(input.data_files, state.concat_dim, state.json_path, their_json,
                        ctx.options.python_repeat, *ctx.options.python));
  if (report.remote) {
    report.remote->python_seconds = python.scan_seconds + python.write_seconds;
    if (!log.empty()) {
      // The script scans --python-repeat times (and reads the JSON files locally).
      KERCHUNK_ASSIGN_OR_RETURN(LogCounts logged, CountLogSince(log, log_start));
      const uint64_t runs = std::max(1u, ctx.options.python_repeat);
      report.remote->python_logged = {logged.requests / runs, logged.bytes / runs};
    }
  }
  KERCHUNK_ASSIGN_OR_RETURN(ReferenceSet theirs, ReadKerchunkFile(their_json));
  PythonComparison c;
  c.python = std::move(python);
  c.their_chunks = theirs.ChunkCount();
  c.differing_chunks = CountDifferingChunks(state.refs, theirs);
  c.comparable = c.their_chunks == state.refs.ChunkCount();
  if (const StepResult* scan = report.FindStep("scan")) c.our_scan_seconds = scan->median_seconds;
  if (const StepResult* load = report.FindStep("load")) c.our_load_seconds = load->median_seconds;
  if (!c.comparable) {
    report.notes.push_back("python: not comparable: kerchunk wrote " +
                           std::to_string(c.their_chunks) + " chunk references, we wrote " +
                           std::to_string(state.refs.ChunkCount()) + "; no ratios reported");
  }
  report.comparison = std::move(c);
  return OkStatus();
}

}  // namespace kerchunk::bench::internal
