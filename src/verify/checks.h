// Loading the reference sets to verify, and the individual checks of `kerchunk verify`.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "kerchunk/refs/reference_set.h"
#include "kerchunk/refs/source_record.h"
#include "kerchunk/util/progress.h"
#include "kerchunk/util/status.h"
#include "kerchunk/verify/report.h"
#include "verify/files.h"
#include "verify/metadata.h"

// Reading the reference sets to verify: plain Kerchunk JSON or a packed file, told apart by the
// packed format's leading "format" field.
namespace kerchunk::verify::internal {

struct LoadedReferences {
  ReferenceSet refs;
  std::string format;  ///< "Kerchunk JSON" or "packed (checksum kcd1:...)"
};

/// True when the file starts like a packed file (pack::IsPackedFile).
bool IsPackedFile(const std::string& path);

/// Reads and expands a reference file. A packed file is opened with its reader and expanded
/// completely, which checks every checkpoint and the checksum of the reference set it expands
/// to. NotFound/IoError when the file cannot be read; other codes when its content is invalid
/// (the message says which format was expected).
Result<LoadedReferences> LoadReferences(const std::string& path);

/// True for errors that mean the file could not be read at all (not that it is invalid).
bool IsUnreadable(const Status& status);

}  // namespace kerchunk::verify::internal

// The individual checks of `kerchunk verify`. Each adds its case logs to the report in array
// order, so the report does not depend on the thread count.
namespace kerchunk::verify::internal {

struct CheckContext {
  unsigned threads = 0;          ///< 0: hardware threads
  Progress* progress = nullptr;  ///< told about the chunks read; none when null
};

/// Validates every .zarray, .zattrs, .zgroup and .zmetadata entry (see docs/verify.md) and
/// returns what is known about each array.
Catalog CheckMetadata(const ReferenceSet& refs, Report& report);

/// What xarray needs to open the groups (see xarray_check.cpp). Unless `strict`, the check is
/// advisory: its problems are warnings that do not fail the run.
void CheckXarray(const ReferenceSet& refs, const Catalog& catalog, bool strict, Report& report);

/// Entries whose key looks like a chunk key (last component of digits and separators): keys
/// outside their array's grid, not in zarr's form, or of an array without (a valid) .zarray.
void CheckKeys(const ReferenceSet& refs, const Catalog& catalog, Report& report);

/// Byte ranges on their own: not empty, offset + length within 64 bits, exactly the stored
/// chunk size when the array's codecs do not compress, and no two ranges of one URL overlapping.
void CheckRanges(const ReferenceSet& refs, const Catalog& catalog, const CheckContext& context,
                 Report& report);

/// Every referenced file that has a local path exists and holds every byte range.
/// `files` gives the sizes (FileSizes()).
void CheckFiles(const ReferenceSet& refs, const Catalog& catalog, const ResolvedFiles& files,
                Report& report);

/// Every file of the scan's record that the index references and that has a local path still
/// has the recorded size and modification time, and the recorded metadata checksum when there
/// is one (source_identity.cpp).
void CheckSourceIdentity(const std::vector<SourceFileRecord>& records, const ReferenceSet& refs,
                         const ResolvedFiles& files, unsigned threads, Report& report);

}  // namespace kerchunk::verify::internal
