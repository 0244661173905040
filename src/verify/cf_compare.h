// --source, after the stored numbers matched: what a CF reader sees through the index's
// attributes against what it sees through the original file's own (cf_decoding.h).
#pragma once

#include <string>

#include "kerchunk/verify/report.h"
#include "verify/catalog.h"
#include "verify/cf_decoding.h"
#include "verify/chunk_region.h"
#include "verify/source.h"

namespace kerchunk::verify::internal {

/// Decodes the elements of `local` (the file's part of the chunk; `global` in the array) held in
/// `decoded` (the full decoded chunk) through `index` and through the dataset's own decoding,
/// and fails `log` with the first element a reader would see differently, naming both values
/// and both sets of attributes. Numeric dtypes only (others pass). A file without _FillValue
/// takes the index's: readers disagree on default fill values, and scan takes them from the
/// HDF5 fill value, which the file's attributes do not show.
Status CompareDecoded(SourceDataset& ds, const ArrayInfo& info, const CfDecoding& index,
                      const ChunkRegion& global, const ChunkRegion& local,
                      const std::string& decoded, const std::string& file, CaseLog& log,
                      const std::string& key);

}  // namespace kerchunk::verify::internal
