// The result checks of `kerchunk bench`: a step is timed only once its output is shown to equal
// the reference it must reproduce, and the benchmark stops with the first difference otherwise.
#pragma once

#include <string_view>

#include "kerchunk/refs/reference_set.h"
#include "kerchunk/util/status.h"

namespace kerchunk::bench {

/// OK when `actual` holds the same keys with the same values as `expected`: URLs compared as
/// strings (ids may differ), entries by key whatever their order, chunk references per array
/// path (arrays without chunks count as absent). Otherwise DataLoss "<step>: <first difference>",
/// naming the key and both values.
Status CheckSameReferences(const ReferenceSet& expected, const ReferenceSet& actual,
                           std::string_view step);

/// The zarr key of chunk `index` of `array` ("tas/3.0.1", or "3.0.1" at the root).
std::string ChunkKey(const ArrayRefs& array, uint64_t index);

}  // namespace kerchunk::bench
