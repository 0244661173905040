// `kerchunk combine`: parses the options into CombineFilesOptions and calls RunCombineFiles
// (kerchunk/commands/combine_files.h).
#include <iostream>
#include <memory>

#include "command.h"
#include "concat_options.h"
#include "identical_dims_check.h"
#include "input_kind.h"
#include "kerchunk/commands/combine_files.h"
#include "kerchunk/scan/input_list.h"
#include "option_checks.h"
#include "output_guard.h"

namespace kerchunk::cli {
namespace {

constexpr const char* kCombineExamples = R"(Examples:
  kerchunk combine part0.json part1.json part2.json -o all.json --concat-dim time
  kerchunk combine 'parts/part*.json' -o all.json --concat-dim time --templates
  kerchunk combine a.json b.json -o ab.json --rewrite s3://bucket=/mirror --check-identical \
      --identical-dims lat,lon
  kerchunk combine r1.json r2.json r3.json -o ens.json --concat-dim member \
      --coord member=attr:variant_label

Parts are placed by their concat coordinate values; where two overlap partially, the later part
wins (--on-overlap), so name shard parts so that they sort in shard order; a part entirely
covered by another is an error unless --on-overlap says which wins. Empty parts (from empty shards) are
ignored. See docs/scan.md.
Exit status: 0 success; 2 usage error or a part that cannot be read (nothing is written);
130, 143, 129: stopped by Ctrl-C, SIGTERM or SIGHUP (the temporary output is removed).)";

struct CombineCommandState {
  CombineFilesOptions options;
  std::vector<std::string> rewrites;
  std::string format = "text";
  std::string on_attribute_conflict = "error";
  ConcatOptionsText concat;
};

// Refuses an -o that is one of the parts (named directly or matched by a pattern).
Status GuardInputs(const CombineFilesOptions& o) {
  const std::vector<NamedOutput> outputs = {{"-o", o.output}};
  KERCHUNK_RETURN_IF_ERROR(CheckOutputLocations(outputs));
  if (!AnyOutputExists(outputs)) return OkStatus();
  std::vector<std::string> inputs = o.parts;
  if (Result<std::vector<std::string>> files = ExpandFilePatterns(o.parts); files.ok()) {
    inputs.insert(inputs.end(), files->begin(), files->end());
  }
  return RefuseOutputsOverInputs(outputs, inputs);
}

// Data files and packed files are the usual wrong parts; say so before reading any.
Status CheckParts(const std::vector<std::string>& parts) {
  Result<std::vector<std::string>> files = ExpandFilePatterns(parts);
  for (const std::string& part : files.ok() ? *files : parts) {
    KERCHUNK_RETURN_IF_ERROR(CheckIndexInput(part, IndexInput::kPlain));
  }
  return OkStatus();
}

std::function<int()> SetUpCombine(CLI::App& app) {
  auto state = std::make_shared<CombineCommandState>();
  CombineFilesOptions& o = state->options;
  app.footer(kCombineExamples);
  app.add_option("parts", o.parts, "Kerchunk reference files (or quoted glob patterns)")
      ->required();
  app.add_option("-o,--output", o.output, "Reference file to write ('-': standard output)")
      ->required()
      ->option_text("FILE");
  AddConcatOptions(app, state->concat,
                   "Dimension to concatenate along (default: time); repeat for several, "
                   "outermost first");
  app.add_option("--identical-dims", o.combine.identical_dims,
                 "Variables taken from the first part instead of concatenated")
      ->delimiter(',')
      ->allow_extra_args(false)
      ->option_text("A,B,...");
  app.add_flag("--check-identical", o.combine.check_identical,
               "Check that --identical-dims variables hold the same values in every part "
               "(along a new dimension: also keep every variable equal in all parts once)");
  app.add_option("--on-attribute-conflict", state->on_attribute_conflict,
                 "Value attributes (scale_factor, _FillValue, units, ...) that differ between "
                 "files: error (default), or keep the first file's with a warning")
      ->check(CLI::IsMember({"error", "first"}));
  app.add_flag("--templates", o.write.templates, "Write each URL once, as a template");
  app.add_flag("--packed", o.packed,
               "Write the packed form (as kerchunk pack would); implied by a .packed.json output");
  app.add_option("--rewrite", state->rewrites,
                 "Read referenced bytes of URLs under REMOTE from LOCAL/...; repeatable")
      ->option_text("REMOTE=LOCAL")
      ->allow_extra_args(false);
  app.add_option("-j,--jobs", o.threads, "Parts parsed at once (default: hardware threads)")
      ->check(ThreadCount())
      ->option_text("N");
  app.add_flag("-q,--quiet", o.quiet, "No warnings or text summary");
  app.add_option("--format", state->format,
                 "Summary format: text (stderr) or json (stdout; stderr with -o -)")
      ->check(CLI::IsMember({"text", "json"}));
  return [state] {
    for (const std::string& text : state->rewrites) {
      Result<PrefixRewrite> rule = ParseRewrite(text, "--rewrite");
      if (!rule.ok()) return ReportError("combine", rule.status());
      state->options.rewrites.push_back(*std::move(rule));
    }
    state->options.combine.on_attribute_conflict = state->on_attribute_conflict == "first"
                                                       ? OnAttributeConflict::kFirst
                                                       : OnAttributeConflict::kError;
    state->options.summary_format =
        state->format == "json" ? SummaryFormat::kJson : SummaryFormat::kText;
    if (Status s = ApplyConcatOptions(state->concat, state->options.combine); !s.ok()) {
      return ReportError("combine", s);
    }
    if (Status s = GuardInputs(state->options); !s.ok()) return ReportError("combine", s);
    if (Status s = CheckParts(state->options.parts); !s.ok()) return ReportError("combine", s);
    if (Status s = CheckIdenticalDimsInFirstPart(state->options.combine.identical_dims,
                                                 state->options.parts);
        !s.ok()) {
      return ReportError("combine", s);
    }
    CommandStreams streams{std::cin, std::cout, std::cerr};
    Result<RunSummary> summary = RunCombineFiles(state->options, streams);
    if (!summary.ok()) return ReportError("combine", summary.status());
    return kExitOk;
  };
}

}  // namespace

KERCHUNK_REGISTER_COMMAND(combine, Command{"combine",
                                           "Combine Kerchunk reference files (e.g. scan shards) "
                                           "along a dimension",
                                           SetUpCombine});

}  // namespace kerchunk::cli
