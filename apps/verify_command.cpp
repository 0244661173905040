// `kerchunk verify`: parses the options into VerifyOptions and calls RunVerify
// (kerchunk/commands/verify.h).
#include <iostream>
#include <memory>

#include "command.h"
#include "input_kind.h"
#include "kerchunk/commands/verify.h"
#include "option_checks.h"
#include "output_guard.h"
#include "source_options.h"

namespace kerchunk::cli {
namespace {

constexpr const char* kVerifyExamples = R"(Examples:
  kerchunk verify refs.json                      # structure, and files when URLs are local
  kerchunk verify refs.json --deep -j 8          # also decode every chunk
  kerchunk verify refs.json --deep --sample 0.01 # decode 1% of the chunks (same ones each run)
  kerchunk verify refs.json --source             # also compare with what libhdf5/netCDF-C read
  kerchunk verify s3refs.json --rewrite s3://bucket/era5=/mirror/era5 --deep
  kerchunk verify httprefs.json --files --deep   # read http(s):// and s3:// files in place
  kerchunk verify s3refs.json --source --s3-endpoint https://s3.example.org --s3-anonymous
  kerchunk verify refs.packed.json --against refs.json   # packed vs unpacked, or vs Python
  kerchunk verify refs.json --format json --junit verify.xml  # for CI

Checks, in order: document (Kerchunk v0/v1 JSON, or a packed file whose contents match its
checksum), metadata (.zarray/.zattrs/.zgroup), xarray (dimension names; warnings unless
--xarray), keys (inside the grid, of an array with a .zarray), ranges (non-empty, exact size
when uncompressed, no overlaps), files (exist, hold every range), decode (--deep), source
(--source), against (--against). See docs/verify.md. With --files, --deep or --source,
http(s):// and s3:// URLs no --rewrite maps are read over the network (docs/remote.md); a
remote file that answers 404 or 403 is a files problem (exit status 1).
Exit status: 0 every check passed; 1 verification found problems; 2 could not run (usage
error, input or --against file missing or unreadable);
130, 143, 129: stopped by Ctrl-C, SIGTERM or SIGHUP (the temporary output is removed).)";

struct VerifyCommandState {
  verify::VerifyOptions options;
  bool files = false;
  bool no_files = false;
  std::vector<std::string> rewrites;
  std::string format = "text";
  SourceOptionsText source_text;
  CLI::Option* sample = nullptr;  ///< to tell a --sample given from the default
};

Status FinishOptions(VerifyCommandState& state) {
  verify::VerifyOptions& o = state.options;
  if (state.files && state.no_files) {
    return InvalidArgumentError("--files and --no-files contradict each other");
  }
  o.files = state.files      ? verify::FilesMode::kOn
            : state.no_files ? verify::FilesMode::kOff
                             : verify::FilesMode::kAuto;
  for (const std::string& text : state.rewrites) {
    KERCHUNK_ASSIGN_OR_RETURN(PrefixRewrite rule, ParseRewrite(text, "--rewrite"));
    o.rewrites.push_back(std::move(rule));
  }
  o.format = state.format == "json" ? verify::ReportFormat::kJson : verify::ReportFormat::kText;
  if (state.sample->count() > 0 && !o.deep && !o.source) {
    return InvalidArgumentError("--sample needs --deep: it chooses the chunks --deep decodes");
  }
  if (o.format == verify::ReportFormat::kJson && o.junit == "-") {
    return InvalidArgumentError(
        "--format json and --junit - both write to standard output; give --junit a file");
  }
  if (o.source) o.deep = true;
  // Which URLs are s3:// is known only once the index is read: a broken credentials file then
  // leaves requests unsigned, and a bucket that needs signatures answers 403 (a files problem).
  KERCHUNK_RETURN_IF_ERROR(FinishSourceOptions(state.source_text, /*reads_s3=*/false, o.remote));
  KERCHUNK_RETURN_IF_ERROR(verify::ValidateOptions(o));
  KERCHUNK_RETURN_IF_ERROR(CheckIndexInput(o.input, IndexInput::kPlainOrPacked));
  KERCHUNK_RETURN_IF_ERROR(CheckIndexInput(o.against, IndexInput::kPlainOrPacked));
  // The referenced data files are compared with --junit by RunVerify, once it knows them.
  KERCHUNK_RETURN_IF_ERROR(CheckOutputLocations({{"--junit", o.junit}}));
  return RefuseOutputsOverInputs({{"--junit", o.junit}}, {o.input, o.against});
}

std::function<int()> SetUpVerify(CLI::App& app) {
  auto state = std::make_shared<VerifyCommandState>();
  verify::VerifyOptions& o = state->options;
  app.footer(kVerifyExamples);
  app.add_option("input", o.input, "Reference file: Kerchunk JSON (v0/v1) or packed")->required();
  app.add_flag("--files", state->files,
               "Check that every referenced file exists and holds its ranges, reading "
               "http(s):// and s3:// files over the network (default: only local paths and "
               "URLs mapped by --rewrite)");
  app.add_flag("--no-files", state->no_files, "Check the structure only; read no data file");
  app.add_flag("--deep", o.deep,
               "Read each chunk and decode it with the declared codecs to the exact chunk size "
               "(HDF5 fletcher32 checksums too)");
  state->sample = app.add_option("--sample", o.sample,
                                 "With --deep: decode this fraction of the chunks (default 1)")
                      ->option_text("FRACTION");
  app.add_option("--seed", o.seed, "Seed of the --sample choice (default 0)")
      ->check(WholeNumber(0))
      ->option_text("N");
  app.add_flag("--source", o.source,
               "Also compare decoded chunks with what libhdf5 / netCDF-C read from the "
               "original file (implies --deep)");
  app.add_flag("--xarray", o.xarray,
               "Fail (not just warn) when xarray could not open a group: missing or "
               "conflicting _ARRAY_DIMENSIONS");
  app.add_option("--against", o.against,
                 "Compare with another reference set (plain or packed) by meaning")
      ->option_text("OTHER");
  app.add_option("--rewrite", state->rewrites,
                 "Read URLs starting with REMOTE from LOCAL (repeatable; longest REMOTE wins)")
      ->option_text("REMOTE=LOCAL")
      ->allow_extra_args(false);
  AddSourceOptions(app, o.remote, state->source_text);
  app.add_option("--max-report", o.max_report,
                 "Problems listed in the report, and kept per JUnit test case (default 20)")
      ->check(WholeNumber(0))
      ->option_text("N");
  app.add_option("--format", state->format, "Report on standard output as text or json")
      ->check(CLI::IsMember({"text", "json"}));
  app.add_option("--junit", o.junit, "Also write a JUnit XML report ('-': standard output)")
      ->option_text("FILE");
  app.add_option("-j,--jobs", o.threads, "Threads (default: hardware threads)")
      ->check(ThreadCount())
      ->option_text("N");
  app.add_flag("-q,--quiet", o.quiet, "No progress bar");
  return [state] {
    if (Status s = FinishOptions(*state); !s.ok()) return ReportError("verify", s);
    Result<verify::Report> report = verify::RunVerify(state->options, std::cout);
    if (!report.ok()) return ReportError("verify", report.status());
    return report->passed() ? kExitOk : kExitCheckFailed;
  };
}

}  // namespace

KERCHUNK_REGISTER_COMMAND(verify, Command{"verify",
                                          "Check a reference file: structure, referenced files, "
                                          "decoded chunks, and differences from another",
                                          SetUpVerify});

}  // namespace kerchunk::cli
