// The checksum of a source file that `kerchunk scan --checksum` records and `verify --files`
// recomputes: XXH3-64 of the bytes of the file that no reference of the index points at.
//
// Those bytes are the file's metadata (HDF5 superblock, object headers, chunk indexes, heaps and
// attributes; a NetCDF-3 header) plus whatever the index leaves out, usually well under 1% of a
// data file, so the hash costs a small read. A file regenerated in place with the same size and
// modification time (`cp -p`, `rsync -t` of a rerun) almost always moves or resizes a chunk or
// changes an attribute, which changes these bytes. A rewrite that changes only the values inside
// uncompressed chunks, leaving every other byte equal, is not seen: hashing the data itself would
// mean reading every file in full.
//
// The definition depends only on the file and on the index's references, so verify recomputes
// it from the index alone; an index whose references into a file change (combine stores a
// converted coordinate inline) must have its checksum recomputed (RecomputeChecksums).
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "kerchunk/refs/reference_set.h"
#include "kerchunk/refs/source_record.h"
#include "kerchunk/util/status.h"

namespace kerchunk {

/// A byte range [offset, offset + length) of a file.
struct ReferencedRange {
  uint64_t offset = 0;
  uint64_t length = 0;
  bool operator==(const ReferencedRange&) const = default;
};

/// The byte ranges the references of `refs` point at, by URL id (chunk and non-chunk keys). A
/// whole-file reference ([url]) is the range [0, UINT64_MAX).
std::vector<std::vector<ReferencedRange>> ReferencedRangesByUrl(const ReferenceSet& refs);

/// XXH3-64 of the bytes of the file at `path` outside `referenced` (in any order, possibly
/// overlapping or past the end of the file), in file order. IoError naming the path when the
/// file cannot be read.
Result<uint64_t> HashUnreferencedBytes(const std::string& path,
                                       std::vector<ReferencedRange> referenced);

/// Sets `metadata_xxh3` of every record in `records` whose URL `refs` references, reading the
/// file at `url_to_path(url)`; `threads` files at once. The first error names its file.
Status AddChecksums(const ReferenceSet& refs,
                    const std::function<std::string(const std::string&)>& url_to_path,
                    unsigned threads, std::vector<SourceFileRecord>& records);

}  // namespace kerchunk
