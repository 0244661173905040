// `kerchunk combine`: merge Kerchunk reference files (scan shards, or any per-file or combined
// references) into one, concatenated along a dimension.
#pragma once

#include <string>
#include <vector>

#include "kerchunk/commands/scan.h"
#include "kerchunk/util/status.h"

namespace kerchunk {

struct CombineFilesOptions {
  /// Kerchunk JSON files; an argument that does not exist but contains *, ? or [ is expanded
  /// with glob(3) (sorted). Parts are placed by their concat coordinate values; their order
  /// matters only where they overlap along the dimension, where a later part wins as a later
  /// file does in a scan: name shard parts so that they sort in shard order (part-007.json).
  std::vector<std::string> parts;
  std::string output;  ///< "-": CommandStreams::out
  /// How the parts are combined (url_to_path and threads are the run's own: `rewrites`,
  /// `threads`).
  CombineOptions combine;
  WriteOptions write;
  bool packed = false;  ///< see ScanOptions::packed
  /// REMOTE=LOCAL rules to read referenced bytes (coordinate values, --check-identical) from a
  /// local copy of remote files (see UrlToLocalPath).
  std::vector<PrefixRewrite> rewrites;
  unsigned threads = 0;  ///< parts parsed at once; 0: hardware threads
  bool quiet = false;
  SummaryFormat summary_format = SummaryFormat::kText;
};

/// Reads every part, leaves out empty ones (the parts of empty shards), and writes their
/// combination: a single remaining part as it is, several through CombineReferenceSets. A part
/// that is missing or not Kerchunk JSON is an error naming it; nothing is written then.
Result<RunSummary> RunCombineFiles(const CombineFilesOptions& options,
                                   const CommandStreams& streams);

}  // namespace kerchunk
