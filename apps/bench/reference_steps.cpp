// The steps on the reference set itself: load and write its Kerchunk JSON, pack it, open the
// packed index and expand it completely. Each output is checked against the reference set
// before the timed runs.
#include <utility>

#include "bench/set_runner.h"
#include "kerchunk/bench/reference_check.h"
#include "kerchunk/json/kerchunk_json.h"
#include "kerchunk/util/file_io.h"

namespace kerchunk::bench::internal {
namespace {

Status CheckStep(const RunContext& ctx, std::string_view step, const ReferenceSet& expected,
                 ReferenceSet& actual) {
  if (ctx.options.hooks.before_check) ctx.options.hooks.before_check(step, actual);
  return CheckSameReferences(expected, actual, step);
}

// The reference set every later step works on: the JSON as loaded. A generated set is written
// out first, and must load back equal to what was generated.
Status LoadStep(const SetInput& input, const RunContext& ctx, SetState& state, SetReport& report) {
  if (input.generated) {
    state.json_path = (ctx.dir / "generated.json").string();
    KERCHUNK_RETURN_IF_ERROR(WriteKerchunkFile(*input.generated, state.json_path));
  } else if (!input.json_path.empty()) {
    state.json_path = input.json_path;
  }
  KERCHUNK_ASSIGN_OR_RETURN(report.sizes.json, FileSize(state.json_path));
  ctx.Progress("load: " + state.json_path);
  KERCHUNK_ASSIGN_OR_RETURN(ReferenceSet loaded, ReadKerchunkFile(state.json_path));
  if (input.generated) KERCHUNK_RETURN_IF_ERROR(CheckStep(ctx, "load", *input.generated, loaded));
  state.refs = std::move(loaded);

  StepResult step{.name = "load"};
  step.refs = state.refs.ChunkCount();
  step.bytes = report.sizes.json;
  std::optional<ReferenceSet> output;
  KERCHUNK_RETURN_IF_ERROR(Measure(
      step, ctx.options.repeat, [&] { output.reset(); },
      [&]() -> Status {
        KERCHUNK_ASSIGN_OR_RETURN(output, ReadKerchunkFile(state.json_path));
        return OkStatus();
      },
      nullptr));
  report.steps.push_back(std::move(step));
  return OkStatus();
}

Status WriteStep(const RunContext& ctx, const SetState& state, SetReport& report) {
  std::string text;
  SerializeKerchunkJson(state.refs, {}, text);
  KERCHUNK_ASSIGN_OR_RETURN(ReferenceSet reread, ParseKerchunkJson(text));
  KERCHUNK_RETURN_IF_ERROR(CheckStep(ctx, "write", state.refs, reread));
  StepResult step{.name = "write"};
  step.refs = state.refs.ChunkCount();
  step.bytes = text.size();
  KERCHUNK_RETURN_IF_ERROR(Measure(
      step, ctx.options.repeat, [&] { std::string().swap(text); },
      [&] {
        SerializeKerchunkJson(state.refs, {}, text);
        return OkStatus();
      },
      nullptr));
  report.steps.push_back(std::move(step));
  return OkStatus();
}

// 1 - (lengths other than the modal one + missing chunks) / slots, over all generators.
double OverallGfactor(const pack::PackSummary& summary) {
  uint64_t slots = 0, others = 0;
  for (const pack::GeneratorSummary& g : summary.generators) {
    slots += g.slots;
    others += g.unique + g.skipped;
  }
  return slots == 0 ? 0 : 1.0 - static_cast<double>(others) / static_cast<double>(slots);
}

// Checks that a packed text expands to exactly the reference set.
Status CheckPacked(const RunContext& ctx, const std::string& text, const ReferenceSet& refs,
                   std::string_view step) {
  KERCHUNK_ASSIGN_OR_RETURN(pack::PackedIndex index, pack::PackedIndex::Parse(text));
  KERCHUNK_ASSIGN_OR_RETURN(ReferenceSet unpacked, index.UnpackAll());
  return CheckStep(ctx, step, refs, unpacked);
}

Status PackStep(const RunContext& ctx, SetState& state, SetReport& report) {
  ctx.Progress("pack");
  // What `kerchunk pack` writes: the compact container (the open step decompresses it).
  KERCHUNK_ASSIGN_OR_RETURN(pack::PackedText packed, pack::Pack(state.refs, {.binary = true}));
  packed.text = pack::CompactPackedFile(packed);
  KERCHUNK_RETURN_IF_ERROR(CheckPacked(ctx, packed.text, state.refs, "unpack"));
  KERCHUNK_ASSIGN_OR_RETURN(pack::PackedText readable, pack::Pack(state.refs, {.readable = true}));
  KERCHUNK_RETURN_IF_ERROR(CheckPacked(ctx, readable.text, state.refs, "unpack --readable"));
  report.sizes.packed = packed.text.size();
  report.sizes.packed_readable = readable.text.size();
  report.gfactor = OverallGfactor(packed.summary);

  StepResult step{.name = "pack"};
  step.refs = state.refs.ChunkCount();
  step.bytes = packed.text.size();
  std::optional<pack::PackedText> output;
  KERCHUNK_RETURN_IF_ERROR(Measure(
      step, ctx.options.repeat, [&] { output.reset(); },
      [&]() -> Status {
        KERCHUNK_ASSIGN_OR_RETURN(output, pack::Pack(state.refs, {.binary = true}));
        output->text = pack::CompactPackedFile(*output);
        return OkStatus();
      },
      [&]() -> Status {
        if (output->text != packed.text) return DataLossError("a repeated pack differs");
        return OkStatus();
      }));
  report.steps.push_back(std::move(step));
  state.packed = std::move(packed);
  return OkStatus();
}

Status OpenAndUnpackSteps(const RunContext& ctx, const SetState& state, SetReport& report) {
  const std::string& text = state.packed->text;
  StepResult open{.name = "open"};
  open.bytes = text.size();
  std::optional<pack::PackedIndex> index;
  KERCHUNK_RETURN_IF_ERROR(Measure(
      open, ctx.options.repeat, [&] { index.reset(); },
      [&]() -> Status {
        KERCHUNK_ASSIGN_OR_RETURN(index, pack::PackedIndex::Parse(text));
        return OkStatus();
      },
      nullptr));
  open.refs = index->key_count();
  report.steps.push_back(std::move(open));

  ctx.Progress("unpack");
  StepResult unpack{.name = "unpack"};
  unpack.refs = index->key_count();
  unpack.bytes = text.size();
  std::optional<ReferenceSet> output;
  KERCHUNK_RETURN_IF_ERROR(Measure(
      unpack, ctx.options.repeat, [&] { output.reset(); },
      [&]() -> Status {
        KERCHUNK_ASSIGN_OR_RETURN(output, index->UnpackAll());
        return OkStatus();
      },
      nullptr));
  report.steps.push_back(std::move(unpack));
  return OkStatus();
}

}  // namespace

Status RunReferenceSteps(const SetInput& input, const RunContext& ctx, SetState& state,
                         SetReport& report) {
  KERCHUNK_RETURN_IF_ERROR(LoadStep(input, ctx, state, report));
  KERCHUNK_RETURN_IF_ERROR(WriteStep(ctx, state, report));
  KERCHUNK_RETURN_IF_ERROR(PackStep(ctx, state, report));
  return OpenAndUnpackSteps(ctx, state, report);
}

}  // namespace kerchunk::bench::internal
