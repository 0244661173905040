// Byte ranges of one file that overlap: no two chunks of an HDF5 or netCDF file share bytes, so
// an overlap means a wrong offset or length in one of them.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "kerchunk/refs/reference_set.h"
#include "kerchunk/verify/report.h"
#include "verify/ref_locator.h"

namespace kerchunk::verify::internal {

/// A range that starts before the end of an earlier range (in file order) of the same URL.
struct Overlap {
  uint64_t ordinal;  ///< the later range
  uint64_t other;    ///< the earlier range reaching furthest
  uint32_t url;
};

/// Every byte range (array chunks and entries, except empty or overflowing ones) that overlaps
/// an earlier one of the same URL, sorted by ordinal.
std::vector<Overlap> FindOverlaps(const ReferenceSet& refs, const RefLocator& locator,
                                  unsigned threads);

/// The finding of an overlap, naming both keys and both ranges.
Finding DescribeOverlap(const ReferenceSet& refs, const RefLocator& locator, const Overlap& o);

}  // namespace kerchunk::verify::internal
