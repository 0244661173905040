// `kerchunk unpack`: expands a packed file (UnpackFile), or only the references of some keys
// and selections (PackedIndex::Extract), to standard Kerchunk JSON.
#include <fmt/format.h>

#include <iostream>
#include <memory>
#include <optional>

#include "command.h"
#include "input_kind.h"
#include "kerchunk/json/kerchunk_json.h"
#include "kerchunk/pack/packed_index.h"
#include "option_checks.h"
#include "output_guard.h"

namespace kerchunk::cli {
namespace {

constexpr const char* kUnpackExamples = R"(Examples:
  kerchunk unpack refs.packed.json -o refs.json
  kerchunk unpack refs.packed.json --key 'lst/12.3.4' --key 'lst/12.3.5'
  kerchunk unpack refs.packed.json --select 'lst[0:10, :, 100:200]' -o part.json
  kerchunk unpack refs.packed.json --select 'tas[-1]' --metadata -o last.json  # opens alone

Without --key/--select, writes every reference (Kerchunk version 1 JSON that fsspec, zarr and
xarray open) after checking the checksum the packed file records. --key and --select decode
only what they need, from the nearest checkpoints; a selection takes, per dimension, an index
or a start:stop slice in array elements (negative counts from the end). Keys of chunks that
were never written are left out (they read as the fill value) and counted on standard error.
Exit status: 0 success; 2 usage error or bad input (nothing is written);
130, 143, 129: stopped by Ctrl-C, SIGTERM or SIGHUP (the temporary output is removed).)";

struct UnpackCommandState {
  std::string input, output = "-";
  std::vector<std::string> keys, selections;
  bool metadata = false;
  bool quiet = false;
  pack::UnpackOptions options;
};

// A --key under an array or group the index does not have is a typo: an error, as for
// --select. A missing chunk of a real array is not (it reads as the fill value): a note.
Status CheckKeyParents(const pack::PackedIndex& index, const std::vector<std::string>& keys) {
  for (const std::string& key : keys) {
    const size_t slash = key.rfind('/');
    if (slash == std::string::npos) continue;  // a key of the root group
    const std::string node = key.substr(0, slash);
    bool known = false;
    for (const char* metadata : {"/.zarray", "/.zgroup"}) {
      KERCHUNK_ASSIGN_OR_RETURN(std::optional<pack::ResolvedValue> value,
                                index.Resolve(node + metadata));
      known = known || value.has_value();
    }
    if (!known) return NotFoundError("key \"{}\": no array \"{}\" in the index", key, node);
  }
  return OkStatus();
}

Status Extract(const UnpackCommandState& s) {
  KERCHUNK_ASSIGN_OR_RETURN(pack::PackedIndex index, pack::PackedIndex::Open(s.input));
  KERCHUNK_RETURN_IF_ERROR(CheckKeyParents(index, s.keys));
  uint64_t missing = 0;
  KERCHUNK_ASSIGN_OR_RETURN(
      ReferenceSet refs, index.Extract(s.keys, s.selections, {.metadata = s.metadata}, &missing));
  KERCHUNK_RETURN_IF_ERROR(WriteKerchunkFile(refs, s.output));
  if (missing > 0 && !s.quiet) {
    fmt::print(stderr,
               "kerchunk unpack: note: {} of the requested keys have no reference (unwritten "
               "chunks read as the fill value)\n",
               missing);
  }
  return OkStatus();
}

std::function<int()> SetUpUnpack(CLI::App& app) {
  auto state = std::make_shared<UnpackCommandState>();
  app.footer(kUnpackExamples);
  app.add_option("input", state->input, "Packed file written by `kerchunk pack`")->required();
  app.add_option("-o,--output", state->output,
                 "Kerchunk JSON to write (default '-': standard output)")
      ->option_text("FILE");
  app.add_option("--key", state->keys, "Only this key (repeatable)")
      ->option_text("KEY")
      ->allow_extra_args(false);
  app.add_option("--select", state->selections,
                 "Only the chunks of this selection, e.g. 'lst[0:10, :, 100:200]' (repeatable)")
      ->option_text("ARRAY[...]")
      ->allow_extra_args(false);
  app.add_flag("--metadata", state->metadata,
               "With --key/--select: also write the metadata keys and, for --select, the "
               "coordinate variables' chunks it needs, so the result opens alone in xarray");
  app.add_option("--max-refs", state->options.max_references,
                 "Refuse to expand more references than this (default 2^31)")
      ->check(WholeNumber(1))
      ->option_text("N");
  app.add_flag("-q,--quiet", state->quiet, "No note about requested keys without a reference");
  return [state] {
    if (Status s = CheckOutputLocations({{"-o", state->output}}); !s.ok()) {
      return ReportError("unpack", s);
    }
    if (Status s = RefuseOutputsOverInputs({{"-o", state->output}}, {state->input}); !s.ok()) {
      return ReportError("unpack", s);
    }
    if (Status s = CheckNotDataFile(state->input); !s.ok()) return ReportError("unpack", s);
    Status status;
    if (state->keys.empty() && state->selections.empty()) {
      status = pack::UnpackFile(state->input, state->output, state->options);
    } else {
      status = Extract(*state);
    }
    if (!status.ok()) return ReportError("unpack", status);
    return kExitOk;
  };
}

}  // namespace

KERCHUNK_REGISTER_COMMAND(unpack, Command{"unpack",
                                          "Expand a packed reference file (or some keys of it) "
                                          "to standard Kerchunk JSON",
                                          SetUpUnpack});

}  // namespace kerchunk::cli
