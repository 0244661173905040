// The end-of-run summary of `kerchunk scan` and `kerchunk combine`: what was read, what was
// skipped, what was written and how fast, as text for people or JSON for scripts.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "kerchunk/refs/reference_set.h"

namespace kerchunk {

/// An input left out by --on-error skip, with the error that caused it.
struct SkippedInput {
  std::string path;
  std::string error;
};

/// What reading one scanned file cost (remote files: requests and bytes fetched).
struct FileCost {
  std::string path;  ///< the path or URL read
  bool remote = false;
  uint64_t requests = 0;
  uint64_t bytes_fetched = 0;
  uint64_t retries = 0;
  uint64_t file_size = 0;
  double seconds = 0;
};

/// Counts of one run. Filled by RunScan / RunCombineFiles.
struct RunSummary {
  std::string command;  ///< "scan" or "combine"
  std::string output;   ///< the output path ("-" for standard output)
  uint64_t inputs = 0;  ///< files (scan) or parts (combine) after expansion and sharding
  uint64_t read = 0;    ///< inputs read successfully
  std::vector<SkippedInput> skipped;
  std::vector<std::string> warnings;  ///< "path: message" from the translators and combine
  std::string concat_dim;             ///< empty when nothing was concatenated
  uint64_t arrays = 0;                ///< .zarray keys written
  uint64_t chunks = 0;                ///< chunk references written
  uint64_t referenced_bytes = 0;      ///< sum of the lengths of [url, offset, length] refs
  uint64_t inline_bytes = 0;          ///< bytes stored inline (before base64)
  uint64_t output_bytes = 0;          ///< size of the output written
  bool packed = false;                ///< the output is the packed form, not Kerchunk JSON
  double seconds = 0;
  /// Scan: each file read, in list order (also the failed ones with --on-error skip).
  std::vector<FileCost> files;
  /// Scan: requests and bytes of combine's reads of remote files (coordinate values).
  uint64_t combine_requests = 0;
  uint64_t combine_bytes_fetched = 0;
  uint64_t peak_rss_bytes = 0;  ///< peak resident memory of the process (getrusage)
};

/// Sets arrays, chunks, referenced_bytes and inline_bytes from the references to be written.
void CountReferences(const ReferenceSet& refs, RunSummary& summary);

/// Peak resident set size of this process so far, in bytes (0 if unknown).
uint64_t PeakRssBytes();

/// A few aligned lines for a terminal, starting "kerchunk <command>: wrote <output>".
std::string FormatSummaryText(const RunSummary& summary);

/// One JSON object on one line with every field of RunSummary plus inputs_per_second (files or
/// parts read per second) and refs_per_second; skipped inputs as [{"path":..., "error":...}].
/// A scan with remote files adds "requests" and "bytes_fetched" (totals, combine's reads
/// included), "combine_requests", "combine_bytes_fetched" and "files": one
/// {"path", "remote", "requests", "bytes_fetched", "retries", "size", "seconds"} per file.
std::string FormatSummaryJson(const RunSummary& summary);

}  // namespace kerchunk
