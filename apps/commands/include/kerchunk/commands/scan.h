// `kerchunk scan`: files, folders and patterns in, one Kerchunk reference file out.
//
// The driver expands the inputs (input_list.h), keeps this run's shard, names every file by its
// URL (url_mapping.h), translates the files in parallel (file_scan.h), concatenates several
// files along a dimension (combine/combine.h) and writes the result atomically, with a summary.
#pragma once

#include <iosfwd>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "kerchunk/combine/combine.h"
#include "kerchunk/commands/summary.h"
#include "kerchunk/io/byte_source.h"
#include "kerchunk/json/kerchunk_json.h"
#include "kerchunk/scan/file_scan.h"
#include "kerchunk/scan/input_list.h"
#include "kerchunk/scan/url_mapping.h"
#include "kerchunk/util/status.h"

namespace kerchunk {

/// The standard streams of a command, passed in so that the library never writes to the
/// process's streams by itself (tests pass string streams).
struct CommandStreams {
  std::istream& in;   ///< read by --files-from -
  std::ostream& out;  ///< references for -o -, and the JSON summary otherwise
  std::ostream& err;  ///< warnings and the text summary
};

/// What to do when one input cannot be read.
enum class OnError {
  kFail,  ///< stop with that input's error; nothing is written (default)
  kSkip,  ///< warn, leave the input out and list it in the summary
};

enum class SummaryFormat {
  kText,  ///< a few lines on `err` (not with quiet)
  kJson,  ///< one JSON object on `out`, or on `err` when the references go to `out` (-o -)
};

struct ScanOptions {
  /// Files, folders, patterns (see ExpandInputs), and remote files: http(s):// URLs, s3://
  /// objects, prefixes and patterns (see ExpandRemoteInput), in any mix.
  std::vector<std::string> inputs;
  std::string files_from;      ///< a file list (see ReadFileList); "-": CommandStreams::in
  std::optional<Shard> shard;  ///< scan only this slice of the sorted file list
  std::string output;          ///< the reference file; "-": CommandStreams::out
  std::string url_prefix;      ///< see PathToUrl::Make
  std::vector<PrefixRewrite> rewrites;
  FileScanOptions file_options;
  /// How remote files are read: headers, the S3 endpoint, region, addressing and credentials.
  io::SourceOptions source;
  /// How several files are combined. An empty concat_dim is the first unlimited dimension of
  /// the first file, else "time"; url_to_path and threads are the run's own (the scanned files'
  /// paths, `threads`).
  CombineOptions combine;
  WriteOptions write;
  /// Write the packed form (docs/packed-format.md, as `kerchunk pack` would from the JSON)
  /// whatever the output's name; an output ending in ".packed.json" gets it without asking.
  bool packed = false;
  OnError on_error = OnError::kFail;
  unsigned threads = 0;  ///< files scanned at once; 0: hardware threads
  bool quiet = false;    ///< no progress bar, warnings or text summary
  SummaryFormat summary_format = SummaryFormat::kText;
  /// Record each file's metadata checksum too (refs/source_checksum.h), not only its size and
  /// modification time.
  bool checksum = false;
};

/// Scans and writes options.output. One file gives its references as they are; several files
/// are combined with CombineReferenceSets. With a shard the part is always combined (inline
/// concat coordinate) unless the whole list is one file, so that `kerchunk combine` of all the
/// parts writes exactly what one scan of every file writes; a shard therefore needs an explicit
/// concat dimension, and an empty shard writes an empty reference set that combine ignores.
///
/// Errors (the output is then not created, and no temporary file is left): InvalidArgument for
/// usage (no inputs, bad combination of options), NotFound for a missing input, and any
/// per-file error of the translators, prefixed by the file's path when the message does not
/// name it already. With OnError::kSkip per-file errors become warnings instead, and only a run
/// in which no file could be read fails.
Result<RunSummary> RunScan(const ScanOptions& options, const CommandStreams& streams);

/// The path of the file the calling thread is translating inside RunScan, else nullptr. For a
/// crash handler of the command: libhdf5 can crash on a corrupt file, and the report should
/// name it. Async-signal-safe to read (a plain thread-local pointer).
const char* FileBeingScanned();

}  // namespace kerchunk
