// Reading and writing Kerchunk reference files (JSON), the interchange format of the toolkit.
//
// Reading accepts what the ecosystem writes: version 1 ({"version":1,"refs":{...}} with optional
// "templates" and "gen") and version 0 (the refs object at top level); values as metadata
// strings, "base64:..." or plain inline strings, [url], [url, offset, length], and any other JSON
// (kept verbatim). It streams through simdjson's On-Demand API straight into the columnar model,
// so a file of millions of references never becomes a map of strings.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "kerchunk/refs/reference_set.h"
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

/// The same text as SerializeKerchunkJson, in parts whose concatenation it is, serialized on
/// `options.threads`: what a file is written from without copying the text into one string.
/// The first part is the document's opening, up to and including `"refs":{`.
std::vector<std::string> SerializeKerchunkJsonParts(const ReferenceSet& refs,
                                                    const WriteOptions& options);

/// Writes `refs` as Kerchunk JSON to `path` atomically (temporary file + rename); "-" writes to
/// standard output.
Status WriteKerchunkFile(const ReferenceSet& refs, const std::string& path,
                         const WriteOptions& options = {});

}  // namespace kerchunk
