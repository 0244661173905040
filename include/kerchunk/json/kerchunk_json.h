// Reading and writing Kerchunk reference files (JSON), the interchange format of the toolkit.
//
// Reading accepts what the ecosystem writes: version 1 ({"version":1,"refs":{...}} with optional
// "templates" and "gen") and version 0 (the refs object at top level); values as metadata
// strings, "base64:..." or plain inline strings, [url], [url, offset, length], and any other JSON
// (kept verbatim). It streams through simdjson's On-Demand API straight into the columnar model,
// so a file of millions of references never becomes a map of strings.
#pragma once

#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "kerchunk/refs/reference_set.h"
#include "kerchunk/refs/source_record.h"
#include "kerchunk/util/status.h"

namespace kerchunk {

/// Parses Kerchunk JSON text. Chunk keys of arrays whose .zarray is present go to the array
/// columns; everything else becomes an Entry. Templates are expanded into URLs and "gen" entries
/// into references. Errors (malformed JSON, a reference that is not [url, offset, length] with
/// non-negative integers, a duplicate chunk key) are InvalidArgument naming the key.
Result<ReferenceSet> ParseKerchunkJson(std::string_view json);

/// Reads and parses a Kerchunk JSON file; errors name the file.
Result<ReferenceSet> ReadKerchunkFile(const std::string& path);

struct WriteOptions {
  /// Store each URL once in "templates" ({"u0": "https://..."}) and refer to it as "{{u0}}".
  bool templates = false;
  /// Threads serializing a large set (0: hardware concurrency); the text is the same for any
  /// number.
  unsigned threads = 1;
};

/// Appends the Kerchunk version 1 JSON of `refs` to `out`: metadata entries in their order,
/// each array's chunk references right after its metadata, one key per line.
void SerializeKerchunkJson(const ReferenceSet& refs, const WriteOptions& options, std::string& out);

/// Streams the text SerializeKerchunkJson writes to `sink`, in order and in pieces (the first
/// is the document's opening, up to and including `"refs":{`), serialized on `options.threads`
/// while the sink writes earlier ones: a file is written without the whole text in memory. The
/// first error of the sink is returned.
Status StreamKerchunkJson(const ReferenceSet& refs, const WriteOptions& options,
                          const std::function<Status(std::string_view)>& sink);
/// The same with the record of `sources` as the document's first member (what scan writes and
/// verify reads without parsing the references), inserted into the small opening piece.
Status StreamKerchunkJson(const ReferenceSet& refs, const WriteOptions& options,
                          const std::vector<SourceFileRecord>& sources,
                          const std::function<Status(std::string_view)>& sink);

/// Writes `refs` as Kerchunk JSON to `path` atomically (temporary file + rename); "-" writes to
/// standard output.
Status WriteKerchunkFile(const ReferenceSet& refs, const std::string& path,
                         const WriteOptions& options = {});

}  // namespace kerchunk
