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
/// `decoded` (the full decoded chunk) through `index`, and the same elements read from the file
/// (`file_values`, the region in C order) through the dataset's own decoding `own`, and fails `log`
/// with the first element a reader would see differently, naming both values and both sets of
/// attributes. Values with CF time units are compared as instants (to the microsecond, and to
/// the rounding of the stored type), so numbers stored in other units of the same calendar may
/// differ; units of other kinds, or other calendars, are one problem. Numeric dtypes only
/// (others pass). A file without _FillValue takes the index's: readers disagree on default fill
/// values, and scan takes them from the HDF5 fill value, which the file's attributes do not show.
Status CompareDecoded(SourceDataset& ds, const ArrayInfo& info, const CfDecoding& index,
                      CfDecoding own, const ChunkRegion& global, const ChunkRegion& local,
                      const std::string& decoded, const std::string& file_values,
                      const std::string& file, CaseLog& log, const std::string& key);

/// Both decodings have CF time units of one calendar, in other units or reference dates: the
/// stored numbers then differ (combine converts a concatenated coordinate and its bounds to the
/// first file's units) while the dates may be the same.
bool TimesInOtherUnits(const CfDecoding& index, const CfDecoding& own);

}  // namespace kerchunk::verify::internal
