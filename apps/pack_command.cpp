// `kerchunk pack`: parses the options into PackOptions and calls PackFile
// (kerchunk/pack/pack.h); the summary goes to standard error.
#include <iostream>
#include <memory>

#include "command.h"
#include "input_kind.h"
#include "kerchunk/commands/pack.h"
#include "option_checks.h"
#include "output_guard.h"

namespace kerchunk::cli {
namespace {

constexpr const char* kPackExamples = R"(Examples:
  kerchunk pack refs.json -o refs.packed.json
  kerchunk pack combined.json -o combined.packed.json --readable   # plain JSON arrays
  kerchunk scan 'era5/*.nc' -o - | kerchunk pack - -o era5.packed.json
  kerchunk unpack refs.packed.json -o refs.json                     # the exact original refs

Reads any Kerchunk JSON (version 0 or 1, templates, gen, inline values) and replaces the chunk
references of each group of arrays sharing a chunk grid by a generator; metadata and inline
values are kept verbatim. The file records a checksum of the reference set it expands to.
The format is described in docs/packed-format.md.
Exit status: 0 success; 2 usage error or bad input (nothing is written);
130, 143, 129: stopped by Ctrl-C, SIGTERM or SIGHUP (the temporary output is removed).)";

struct PackCommandState {
  std::string input, output;
  pack::PackOptions options;
  bool quiet = false;
  bool verbose = false;
};

std::function<int()> SetUpPack(CLI::App& app) {
  auto state = std::make_shared<PackCommandState>();
  app.footer(kPackExamples);
  app.add_option("input", state->input, "Kerchunk reference file ('-': standard input)")
      ->required();
  app.add_option("-o,--output", state->output, "Packed file to write ('-': standard output)")
      ->required()
      ->option_text("FILE");
  app.add_flag("--readable", state->options.readable,
               "Write plain JSON arrays instead of compact base64 columns");
  app.add_option("--checkpoint-interval", state->options.checkpoint_interval,
                 "References between checkpoints (1-65536, default 256): lookups decode fewer")
      ->check(WholeNumber(1, 65536))
      ->option_text("N");
  app.add_flag("-q,--quiet", state->quiet, "No summary on standard error");
  app.add_flag("-v,--verbose", state->verbose,
               "Also describe each generator: order, length predictor, regularity");
  return [state] {
    if (Status s = CheckOutputLocations({{"-o", state->output}}); !s.ok()) {
      return ReportError("pack", s);
    }
    if (Status s = RefuseOutputsOverInputs({{"-o", state->output}}, {state->input}); !s.ok()) {
      return ReportError("pack", s);
    }
    if (Status s = CheckIndexInput(state->input, IndexInput::kPlain); !s.ok()) {
      return ReportError("pack", s);
    }
    Result<pack::PackSummary> summary = pack::PackFile(state->input, state->output, state->options);
    if (!summary.ok()) return ReportError("pack", summary.status());
    if (!state->quiet) pack::WritePackSummary(*summary, std::cerr, state->verbose);
    return kExitOk;
  };
}

}  // namespace

KERCHUNK_REGISTER_COMMAND(pack, Command{"pack",
                                        "Compress a Kerchunk reference file into exact, randomly "
                                        "accessible generators",
                                        SetUpPack});

}  // namespace kerchunk::cli
