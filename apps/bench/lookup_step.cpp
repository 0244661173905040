// Random single-key lookups through the packed index, as a reader resolving chunk keys on
// demand does: each key is first checked against its reference, then every lookup is timed on
// its own for the latency distribution.
#include <algorithm>
#include <chrono>

#include "bench/random.h"
#include "bench/set_runner.h"
#include "kerchunk/bench/measure.h"
#include "kerchunk/bench/reference_check.h"

namespace kerchunk::bench::internal {
namespace {

struct ExpectedKey {
  std::string key;
  ChunkRef ref;
  std::string url;  // for kRange and kWholeFile
};

// `count` chunk keys drawn uniformly (with replacement) from all chunk references.
std::vector<ExpectedKey> DrawKeys(const ReferenceSet& refs, uint64_t count) {
  std::vector<uint64_t> ends;  // cumulative chunk counts per array
  uint64_t total = 0;
  for (const ArrayRefs& a : refs.arrays) ends.push_back(total += a.size());
  std::vector<ExpectedKey> keys;
  if (total == 0) return keys;
  SplitMix64 rng(0x100C0 + total);
  keys.reserve(count);
  for (uint64_t k = 0; k < count; ++k) {
    const uint64_t g = rng.Below(total);
    const size_t a = std::upper_bound(ends.begin(), ends.end(), g) - ends.begin();
    const ArrayRefs& array = refs.arrays[a];
    const size_t i = g - (ends[a] - array.size());
    ExpectedKey e{ChunkKey(array, array.chunk_index(i)), array.Get(i), ""};
    if (e.ref.kind != RefKind::kInline) e.url = refs.urls[e.ref.url];
    keys.push_back(std::move(e));
  }
  return keys;
}

Status CheckResolved(const ExpectedKey& e, const std::optional<pack::ResolvedValue>& got) {
  if (!got) return DataLossError("lookup: key {}: expected a reference, got none", e.key);
  bool same = false;
  switch (e.ref.kind) {
    case RefKind::kRange:
      same = got->kind == EntryValue::Kind::kRange && got->url == e.url &&
             got->offset == e.ref.offset && got->length == e.ref.length;
      break;
    case RefKind::kWholeFile:
      same = got->kind == EntryValue::Kind::kWholeFile && got->url == e.url;
      break;
    case RefKind::kInline:
      same = got->kind == (e.ref.base64 ? EntryValue::Kind::kBase64 : EntryValue::Kind::kText) &&
             got->data == e.ref.data;
      break;
  }
  if (!same) {
    return DataLossError("lookup: key {}: expected [\"{}\", {}, {}], got [\"{}\", {}, {}]", e.key,
                         e.url, e.ref.offset, e.ref.length, got->url, got->offset, got->length);
  }
  return OkStatus();
}

// Keys of chunks that were never written must resolve to nothing: the first gap of each array.
Status CheckAbsentKeys(const pack::PackedIndex& index, const ReferenceSet& refs) {
  for (const ArrayRefs& array : refs.arrays) {
    if (array.size() >= array.grid().num_chunks()) continue;
    uint64_t missing = 0;
    while (missing < array.size() && array.chunk_index(missing) == missing) ++missing;
    const std::string key = ChunkKey(array, missing);
    KERCHUNK_ASSIGN_OR_RETURN(std::optional<pack::ResolvedValue> got, index.Resolve(key));
    if (got) return DataLossError("lookup: key {} was never written but resolves", key);
  }
  return OkStatus();
}

}  // namespace

Status RunLookupStep(const RunContext& ctx, const SetState& state, SetReport& report) {
  const std::vector<ExpectedKey> keys = DrawKeys(state.refs, ctx.options.lookups);
  if (keys.empty()) {
    report.notes.push_back("lookup: skipped (no chunk references)");
    return OkStatus();
  }
  KERCHUNK_ASSIGN_OR_RETURN(pack::PackedIndex index, pack::PackedIndex::Parse(state.packed->text));
  for (const ExpectedKey& e : keys) {
    KERCHUNK_ASSIGN_OR_RETURN(std::optional<pack::ResolvedValue> got, index.Resolve(e.key));
    KERCHUNK_RETURN_IF_ERROR(CheckResolved(e, got));
  }
  KERCHUNK_RETURN_IF_ERROR(CheckAbsentKeys(index, state.refs));

  ctx.Progress("lookup: " + std::to_string(keys.size()) + " random keys");
  StepResult step{.name = "lookup"};
  step.refs = keys.size();
  std::vector<double> latencies(keys.size());
  std::vector<double> medians, p99s;
  volatile uint64_t sink = 0;  // keeps the lookups from being optimised away
  KERCHUNK_RETURN_IF_ERROR(Measure(
      step, ctx.options.repeat, nullptr,
      [&]() -> Status {
        for (size_t k = 0; k < keys.size(); ++k) {
          auto start = std::chrono::steady_clock::now();
          Result<std::optional<pack::ResolvedValue>> got = index.Resolve(keys[k].key);
          auto end = std::chrono::steady_clock::now();
          if (!got.ok() || !got->has_value()) return DataLossError("key {}", keys[k].key);
          sink = sink + (*got)->offset;
          latencies[k] = std::chrono::duration<double, std::nano>(end - start).count();
        }
        return OkStatus();
      },
      [&] {
        medians.push_back(Median(latencies));
        p99s.push_back(Percentile(latencies, 99));
        return OkStatus();
      }));
  report.lookup = {keys.size(), Median(medians), Median(p99s)};
  report.steps.push_back(std::move(step));
  return OkStatus();
}

}  // namespace kerchunk::bench::internal
