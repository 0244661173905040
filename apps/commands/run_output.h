// Helpers shared by the scan and combine drivers: the output file, combining, the summary.
#pragma once

#include <chrono>
#include <optional>
#include <ostream>
#include <string>
#include <unordered_map>
#include <vector>

#include "kerchunk/combine/combine.h"
#include "kerchunk/commands/scan.h"
#include "kerchunk/json/kerchunk_json.h"
#include "kerchunk/refs/source_record.h"

namespace kerchunk::internal {

/// Fails early, before any work, when `path` cannot be written: "-" always can; otherwise its
/// folder must exist and be writable. The file itself is created only by WriteReferences, so a
/// run that dies half-way (a C library crashing on a corrupt file) leaves nothing behind.
Status CheckOutputPath(const std::string& path);

/// Serializes `refs` and writes it to `path` atomically (temporary file + rename), or to
/// `stdout_stream` for "-"; returns the number of bytes written. `sources`, when not empty, is
/// written first as the "kerchunk_sources" member (kerchunk/refs/source_record.h). With
/// `packed`, or a path ending in ".packed.json" (WantsPacked), the output is the packed form
/// (docs/packed-format.md, compact container) straight from the reference model, the Kerchunk
/// JSON never built (the source record last, as pack writes it).
Result<uint64_t> WriteReferences(const std::string& path, const ReferenceSet& refs,
                                 const WriteOptions& options, std::ostream& stdout_stream,
                                 const std::vector<SourceFileRecord>& sources = {},
                                 bool packed = false);

/// Whether WriteReferences writes the packed form.
bool WantsPacked(const std::string& path, bool packed);

/// The records of `refs`' URLs among `known` (by URL), in URL order; URLs without one (not
/// scanned here) are left out.
std::vector<SourceFileRecord> SourcesOf(const ReferenceSet& refs,
                                        const std::vector<SourceFileRecord>& known);

/// "member,time": the concat dimensions (outer first; concat_dim "time" when empty), as the
/// summary reports them.
std::string ConcatDimsText(const CombineOptions& options);

/// Per-file warnings grouped by message, so that a series of similar files reports each
/// problem once instead of once per file.
class GroupedWarnings {
 public:
  void Add(const std::string& path, const std::string& message);
  /// "path: message" for the first file with each message, in order of first appearance, plus
  /// " (and N more files)" when others had it too.
  std::vector<std::string> Lines() const;

 private:
  struct Group {
    std::string message;
    std::string first_path;
    size_t files = 0;
  };
  std::vector<Group> groups_;
  std::unordered_map<std::string, size_t> index_;  // message -> position in groups_
};

/// Prints a warning line "kerchunk <command>: warning: <message>" unless quiet.
void Warn(const CommandStreams& streams, const std::string& command, bool quiet,
          const std::string& message);

/// Writes the summary as the format asks: JSON to `out` (to `err` when the references went to
/// `out`), text to `err` unless quiet.
void EmitSummary(const RunSummary& summary, SummaryFormat format, bool quiet,
                 const CommandStreams& streams);

/// The end of a scan or combine run: counts `refs` into `summary`, writes them to `output`,
/// records the time since `start` and the peak RSS, and emits the summary.
Status FinishRun(const ReferenceSet& refs, const std::string& output, const WriteOptions& write,
                 bool packed, std::chrono::steady_clock::time_point start, SummaryFormat format,
                 bool quiet, const CommandStreams& streams, RunSummary& summary,
                 const std::vector<SourceFileRecord>& sources = {});

/// `message` prefixed with "path: " unless it already names the path.
Status NameFile(Status status, const std::string& path);

}  // namespace kerchunk::internal
