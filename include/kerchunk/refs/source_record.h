// The identity of the files an index references, as scan saw them (size and modification
// time), so that `verify --files` can tell when a file changed after the scan: a rewritten file
// of the same name keeps its URL but its byte ranges now point at other data.
//
// In Kerchunk JSON the record is the top-level member "kerchunk_sources", written first:
//   {"kerchunk_sources":{"files":[{"url":"/data/day1.nc","size":11297,"mtime_ns":...}, ...]},
//    "version":1,"refs":{...}}
// With `kerchunk scan --checksum` each file also carries "metadata_xxh3": the XXH3-64 (hex) of
// the bytes of the file that no reference of the index points at — its metadata (superblock,
// headers, chunk indexes, attributes, a NetCDF-3 header) and whatever the index leaves out —
// which a rewrite that kept size and modification time changes too (source_checksum.h).
// fsspec's ReferenceFileSystem reads only "version", "templates", "gen" and "refs", so
// Kerchunk readers ignore it; written first, a reader finds it without parsing the references.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kerchunk/util/status.h"

namespace kerchunk {

inline constexpr std::string_view kSourceRecordKey = "kerchunk_sources";

struct SourceFileRecord {
  std::string url;
  uint64_t size = 0;
  int64_t mtime_ns = 0;  ///< modification time, nanoseconds since the Unix epoch
  /// XXH3-64 of the bytes no reference points at (scan --checksum), see source_checksum.h.
  std::optional<uint64_t> metadata_xxh3;
  bool operator==(const SourceFileRecord&) const = default;
};

/// The size and modification time of the local file `path`, recorded under `url`. IoError
/// naming the path when it cannot be read.
Result<SourceFileRecord> RecordSourceFile(std::string url, const std::string& path);

/// The JSON member `"kerchunk_sources":{"files":[...]}` (no surrounding braces).
std::string SourceRecordMember(const std::vector<SourceFileRecord>& files);

/// The record of the file at `path`: a Kerchunk JSON document that starts with the member, or
/// a packed file (`kerchunk pack`), which keeps it as a top-level member too (parsed whole:
/// packed files are small). nullopt when there is none (other producers, older scans).
/// InvalidArgument naming the file when the member is malformed; IoError when the file cannot
/// be read.
Result<std::optional<std::vector<SourceFileRecord>>> ReadSourceRecord(const std::string& path);

/// The record in the text of a packed file (JSON), as ReadSourceRecord reads it; `path` names
/// the file in errors.
Result<std::optional<std::vector<SourceFileRecord>>> SourceRecordOfPackedText(
    std::string_view text, const std::string& path);

/// `text` (a JSON object document, e.g. a packed file) with the member added before its closing
/// brace; unchanged when `files` is empty.
void AppendSourceRecord(const std::vector<SourceFileRecord>& files, std::string& text);

/// `text` (Kerchunk JSON, starting with '{') with the member added first, where
/// ReadSourceRecord looks for it; unchanged when `files` is empty.
void PrependSourceRecord(const std::vector<SourceFileRecord>& files, std::string& text);

/// "2026-11-26T07:00:00.123456789Z" for messages.
std::string FormatMtime(int64_t mtime_ns);

}  // namespace kerchunk
