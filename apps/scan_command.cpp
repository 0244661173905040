// `kerchunk scan`: parses the options into ScanOptions and calls RunScan
// (kerchunk/commands/scan.h).
#include <fmt/format.h>
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <map>
#include <memory>
#include <sstream>

#include "command.h"
#include "concat_options.h"
#include "identical_dims_check.h"
#include "kerchunk/commands/scan.h"
#include "kerchunk/io/byte_source.h"
#include "kerchunk/scan/input_list.h"
#include "kerchunk/util/file_io.h"
#include "option_checks.h"
#include "output_guard.h"
#include "source_options.h"

namespace kerchunk::cli {
namespace {

constexpr const char* kScanExamples = R"(Examples:
  kerchunk scan data/file.nc -o file.json
  kerchunk scan 'cmip6/tas_*.nc' -o tas.json --concat-dim time --identical-dims lat,lon
  find /mirror -name '*.nc' | kerchunk scan --files-from - -o all.json -j 8
  kerchunk scan /mirror/era5 --rewrite /mirror=s3://bucket -o era5.json --templates
  kerchunk scan /mirror/era5 --shard $K/16 --concat-dim time -o part-$(printf %02d $K).json
  kerchunk scan 'daily/*.nc' -o daily.json --checksum   # verify --files sees rewritten files
  kerchunk scan ensemble/ -o ens.json --concat-dim member --coord member=attr:variant_label
  kerchunk scan 'tas_r*_*.nc' -o ens.json --concat-dim member --concat-dim time \
      --coord 'member=path:_(r\d+i\d+p\d+f\d+)_'
  kerchunk scan nemo/ -o nemo.json --concat-dim time_counter --coord time_counter=data:time_centered
  kerchunk scan https://host/data/a.nc https://host/data/b.nc -o ab.json --header 'Authorization: Bearer T'
  kerchunk scan 's3://bucket/cmip6/tas_*.nc' -o tas.json -j 16    # credentials: AWS_* or ~/.aws
  kerchunk scan s3://bucket/era5/ --s3-endpoint https://s3.example.org -o era5.json

Inputs are files, folders (searched recursively for files that start like HDF5 or NetCDF-3)
and quoted patterns; the list is sorted and de-duplicated. Shards are numbered from 0; merge
their parts with `kerchunk combine`. A file whose every step along the concat dimension is also
in another file is an error (exit 2) unless --on-overlap says which wins. Values of a new
dimension: numbers sorted, strings in input order. See docs/scan.md.
Remote files (http(s)://, s3://) are read with range requests, the head first (4 MiB), then
what the reader touches; references name them by the URL given. See docs/remote.md.
Exit status: 0 success; 2 usage error or a file that cannot be read, local or remote (404, 403,
a body cut short, retries exhausted; nothing is written);
130, 143, 129: stopped by Ctrl-C, SIGTERM or SIGHUP (the temporary output is removed).)";

// libhdf5 can crash on a corrupt file (e.g. a damaged global heap read by H5Aread). Rather than
// dying with a bare "Segmentation fault", report which file did it, in the one-line error form,
// and exit 2. The output file does not exist yet at that point (it is written after the scan),
// so nothing is left behind. Only async-signal-safe calls here: write and _exit.
void WriteRaw(const char* text) {
  ssize_t ignored = ::write(STDERR_FILENO, text, std::strlen(text));
  (void)ignored;
}

void ReportCrash(int signal) {
  const char* file = FileBeingScanned();
  WriteRaw("kerchunk scan: error: ");
  if (file) {
    WriteRaw(file);
    WriteRaw(": ");
  }
  WriteRaw("crashed reading this file (signal ");
  char number[4] = {static_cast<char>('0' + signal / 10 % 10), static_cast<char>('0' + signal % 10),
                    ')', '\0'};
  WriteRaw(number[0] == '0' ? number + 1 : number);
  WriteRaw(file ? "; it is probably corrupt; nothing was written\n" : "; nothing was written\n");
  RemoveTemporaryOutputs();
  ::_exit(kExitError);
}

void InstallCrashReport() {
  for (int signal : {SIGSEGV, SIGBUS, SIGFPE, SIGILL, SIGABRT}) std::signal(signal, ReportCrash);
}

struct ScanCommandState {
  ScanOptions options;
  std::string shard;
  std::vector<std::string> rewrites;
  std::string on_unsupported = "error";
  bool hdf5_library = false;
  std::string on_error = "fail";
  std::string format = "text";
  std::string on_attribute_conflict = "error";
  ConcatOptionsText concat;
  SourceOptionsText source_text;
};

Status SetUpSource(ScanCommandState& state) {
  bool reads_s3 = false;
  for (const std::string& input : state.options.inputs) reads_s3 |= input.starts_with("s3://");
  return FinishSourceOptions(state.source_text, reads_s3, state.options.source);
}

Status FinishOptions(ScanCommandState& state) {
  if (!state.shard.empty()) {
    KERCHUNK_ASSIGN_OR_RETURN(state.options.shard, ParseShard(state.shard));
  }
  for (const std::string& text : state.rewrites) {
    KERCHUNK_ASSIGN_OR_RETURN(PrefixRewrite rule, ParseRewrite(text, "--rewrite"));
    state.options.rewrites.push_back(std::move(rule));
  }
  static const std::map<std::string, OnUnsupported> kOnUnsupported = {
      {"error", OnUnsupported::kError},
      {"skip", OnUnsupported::kSkip},
      {"inline", OnUnsupported::kInline}};
  state.options.file_options.on_unsupported = kOnUnsupported.at(state.on_unsupported);
  if (state.hdf5_library) state.options.file_options.hdf5_reader = Hdf5Reader::kLibrary;
  state.options.on_error = state.on_error == "skip" ? OnError::kSkip : OnError::kFail;
  state.options.combine.on_attribute_conflict = state.on_attribute_conflict == "first"
                                                    ? OnAttributeConflict::kFirst
                                                    : OnAttributeConflict::kError;
  state.options.summary_format =
      state.format == "json" ? SummaryFormat::kJson : SummaryFormat::kText;
  KERCHUNK_RETURN_IF_ERROR(SetUpSource(state));
  return ApplyConcatOptions(state.concat, state.options.combine);
}

// Moves the lines of the --files-from list into the inputs and returns the list's path ("" when
// there is none, or it was standard input). A list can be read only once when it is standard
// input, a pipe (`--files-from <(find ...)`) or a FIFO: read once here for the checks, it is
// passed on to the scan as inputs (reading it again waited for a writer that had gone, or found
// it empty). A list that cannot be read is left to the scan, which reports why.
std::string MoveListIntoInputs(ScanOptions& o) {
  if (o.files_from.empty()) return "";
  const std::string list = o.files_from == "-" ? "" : o.files_from;
  std::vector<std::string> listed;
  if (o.files_from == "-") {
    listed = ReadFileList(std::cin);
  } else {
    Result<std::string> text = ReadFileToString(o.files_from);
    if (!text.ok()) return list;
    std::istringstream in(*text);
    listed = ReadFileList(in);
  }
  o.inputs.insert(o.inputs.end(), listed.begin(), listed.end());
  o.files_from.clear();
  return list;
}

// Checks before the scan: the output's folder; no -o that is one of the files the scan would
// read (or the list naming them); every --identical-dims name a variable of the first file.
// Expanding the inputs lists their folders and opens every file in them to read its signature,
// so it is done once: when every input is local, the scan is then given the files the checks
// looked at, and neither lists the folders again nor can see other files than were checked.
Status GuardInputs(ScanCommandState& state) {
  ScanOptions& o = state.options;
  const std::vector<NamedOutput> outputs = {{"-o", o.output}};
  KERCHUNK_RETURN_IF_ERROR(CheckOutputLocations(outputs));
  const bool output_exists = AnyOutputExists(outputs);
  if (!output_exists && o.combine.identical_dims.empty()) return OkStatus();
  const std::string list = MoveListIntoInputs(o);
  const std::vector<std::string>& inputs = o.inputs;
  const bool all_local = std::none_of(inputs.begin(), inputs.end(), io::IsRemoteUrl);
  Result<std::vector<std::string>> files = ExpandInputs(LocalInputs(inputs));
  if (output_exists) {
    std::vector<std::string> checked = inputs;  // first as given: messages name what was typed
    if (!list.empty()) checked.push_back(list);
    if (files.ok()) checked.insert(checked.end(), files->begin(), files->end());
    KERCHUNK_RETURN_IF_ERROR(RefuseOutputsOverInputs(outputs, checked));
  }
  if (!all_local || !o.files_from.empty() || !files.ok() || files->empty()) {
    return OkStatus();  // the scan reports why
  }
  KERCHUNK_RETURN_IF_ERROR(
      CheckIdenticalDimsInFirstFile(o.combine.identical_dims, *files, o.file_options));
  o.inputs = *std::move(files);
  return OkStatus();
}

// With one file nothing is combined, so the options that say how to combine do nothing; say so
// rather than let a user believe the named variables were checked.
void WarnUnusedCombineOptions(const ScanOptions& o, const RunSummary& summary) {
  if (o.quiet || !summary.concat_dim.empty()) return;
  for (const auto& [given, name] :
       {std::pair{!o.combine.identical_dims.empty(), "--identical-dims"},
        std::pair{o.combine.check_identical, "--check-identical"},
        std::pair{!o.combine.coordinates.empty(), "--coord"},
        std::pair{o.combine.on_overlap != OnOverlap::kDefault, "--on-overlap"}}) {
    if (given) {
      fmt::print(stderr, "kerchunk scan: warning: {} ignored: one file, nothing was combined\n",
                 name);
    }
  }
}

std::function<int()> SetUpScan(CLI::App& app) {
  auto state = std::make_shared<ScanCommandState>();
  ScanOptions& o = state->options;
  app.footer(kScanExamples);
  app.add_option("inputs", o.inputs, "Files, folders or quoted glob patterns to scan");
  app.add_option("--files-from", o.files_from,
                 "Read more inputs from LIST, one a line ('-': standard input)")
      ->option_text("LIST");
  app.add_option("-o,--output", o.output, "Reference file to write ('-': standard output)")
      ->required()
      ->option_text("FILE");
  app.add_option("--shard", state->shard,
                 "Scan only shard K of N (K = 0..N-1) of the sorted list, for `kerchunk combine`")
      ->option_text("K/N");
  app.add_option("-j,--jobs", o.threads,
                 "Files scanned at once (default: hardware threads, and at least 16 when inputs "
                 "are remote)")
      ->check(ThreadCount())
      ->option_text("N");
  app.add_option("--url-prefix", o.url_prefix,
                 "Refer to files as PREFIX + their path relative to the current directory")
      ->option_text("PREFIX");
  app.add_option("--rewrite", state->rewrites,
                 "Refer to files under LOCAL as REMOTE/...; repeatable, longest LOCAL wins")
      ->option_text("LOCAL=REMOTE")
      ->allow_extra_args(false);
  app.add_flag("--templates", o.write.templates, "Write each URL once, as a template");
  app.add_flag("--packed", o.packed,
               "Write the packed form (as kerchunk pack would); implied by a .packed.json output");
  AddConcatOptions(app, state->concat,
                   "Dimension to concatenate files along (default: the first file's unlimited "
                   "dimension, else time); repeat for several, outermost first");
  app.add_option("--identical-dims", o.combine.identical_dims,
                 "Variables taken from the first file instead of concatenated")
      ->delimiter(',')
      ->allow_extra_args(false)
      ->option_text("A,B,...");
  app.add_flag("--check-identical", o.combine.check_identical,
               "Check that --identical-dims variables hold the same values in every file "
               "(along a new dimension: also keep every variable equal in all files once)");
  app.add_option("--on-attribute-conflict", state->on_attribute_conflict,
                 "Value attributes (scale_factor, _FillValue, units, ...) that differ between "
                 "files: error (default), or keep the first file's with a warning")
      ->check(CLI::IsMember({"error", "first"}));
  app.add_option("--inline-threshold", o.file_options.inline_threshold,
                 "Store chunks smaller than this many bytes inline (default 0: never)")
      ->check(WholeNumber(0))
      ->option_text("BYTES");
  app.add_option("--on-unsupported", state->on_unsupported,
                 "Variables no zarr codec can read: error, skip, or inline (small ones)")
      ->check(CLI::IsMember({"error", "skip", "inline"}));
  app.add_option("--on-error", state->on_error,
                 "A file that cannot be read: fail (default), or skip it with a warning")
      ->check(CLI::IsMember({"fail", "skip"}));
  app.add_flag("--hdf5-library", state->hdf5_library,
               "Read HDF5 metadata with libhdf5 (one file at a time, under its lock) instead of "
               "the native reader: a debugging aid, the reference the tests compare with");
  AddSourceOptions(app, o.source, state->source_text);
  app.add_flag("--checksum", o.checksum,
               "Record a hash of each file's metadata bytes, which verify --files compares");
  app.add_flag("-q,--quiet", o.quiet, "No progress bar, warnings or text summary");
  app.add_option("--format", state->format,
                 "Summary format: text (stderr) or json (stdout; stderr with -o -)")
      ->check(CLI::IsMember({"text", "json"}));
  return [state] {
    if (Status s = FinishOptions(*state); !s.ok()) return ReportError("scan", s);
    if (Status s = GuardInputs(*state); !s.ok()) return ReportError("scan", s);
    InstallCrashReport();
    CommandStreams streams{std::cin, std::cout, std::cerr};
    Result<RunSummary> summary = RunScan(state->options, streams);
    if (!summary.ok()) return ReportError("scan", summary.status());
    WarnUnusedCombineOptions(state->options, *summary);
    return kExitOk;
  };
}

}  // namespace

KERCHUNK_REGISTER_COMMAND(scan, Command{"scan",
                                        "Write the Kerchunk references of NetCDF/HDF5 files "
                                        "(several files are combined along a dimension)",
                                        SetUpScan});

}  // namespace kerchunk::cli
