// The verify steps: `kerchunk verify` of the Kerchunk JSON and of the packed index, as the
// command runs them (load, structure checks, referenced files; with --verify-deep also every
// chunk decoded). A benchmark whose index does not verify stops here.
#include <sstream>

#include "bench/set_runner.h"
#include "kerchunk/commands/verify.h"
#include "kerchunk/util/file_io.h"

namespace kerchunk::bench::internal {
namespace {

verify::VerifyOptions MakeVerifyOptions(const RunContext& ctx, const std::string& input) {
  verify::VerifyOptions options;
  options.input = input;
  options.files = verify::FilesMode::kAuto;
  options.deep = ctx.options.verify_deep;
  options.threads = ctx.options.jobs;
  options.quiet = true;
  return options;
}

// The first problem of a failed report, for the error message.
std::string FirstProblem(const verify::Report& report) {
  for (const verify::CaseLog* c : report.Cases()) {
    if (!c->findings().empty()) {
      return std::string(verify::CheckName(c->check())) + ": " + c->findings().front().message;
    }
  }
  return "no message";
}

Result<verify::Report> VerifyOnce(const verify::VerifyOptions& options) {
  std::ostringstream out;
  return verify::RunVerify(options, out);
}

Status TimeVerify(const RunContext& ctx, const std::string& name, const std::string& input,
                  uint64_t keys, SetReport& report) {
  const verify::VerifyOptions options = MakeVerifyOptions(ctx, input);
  KERCHUNK_ASSIGN_OR_RETURN(verify::Report first, VerifyOnce(options));
  if (!first.passed()) {
    return DataLossError("{}: {} problems in {}; the first: {}", name, first.Failures(), input,
                         FirstProblem(first));
  }
  if (first.Examined(verify::Check::kFiles) == 0 && report.notes.size() < 8) {
    report.notes.push_back(name + ": referenced files not checked (not local)");
  }
  StepResult step{.name = name};
  step.refs = keys;
  KERCHUNK_ASSIGN_OR_RETURN(step.bytes, FileSize(input));
  KERCHUNK_RETURN_IF_ERROR(Measure(
      step, ctx.options.repeat, nullptr, [&] { return VerifyOnce(options).status(); }, nullptr));
  report.steps.push_back(std::move(step));
  return OkStatus();
}

}  // namespace

Status RunVerifyStep(const RunContext& ctx, const SetState& state, SetReport& report) {
  ctx.Progress("verify");
  KERCHUNK_RETURN_IF_ERROR(TimeVerify(ctx, "verify", state.json_path, report.keys, report));
  const std::string packed_path = (ctx.dir / "packed.json").string();
  KERCHUNK_RETURN_IF_ERROR(WriteFileAtomically(packed_path, state.packed->text));
  return TimeVerify(ctx, "verify packed", packed_path, report.keys, report);
}

}  // namespace kerchunk::bench::internal
