// What `kerchunk unpack --select ... --metadata` must add for the extract to open alone in
// xarray: the coordinate variables and the arrays the selected one names.
#pragma once

#include <cstdint>
#include <utility>
#include <vector>

#include "index_state.h"

namespace kerchunk::pack::internal {

/// Per dimension a half-open range [first, last) of element indices.
using ElementRanges = std::vector<std::pair<uint64_t, uint64_t>>;

struct ArrayBox {
  size_t array;  ///< index into IndexState::base.arrays
  ElementRanges elements;
};

/// The arrays besides `array` (of which `elements` are selected) that xarray reads when it opens
/// the extract, per _ARRAY_DIMENSIONS and CF attributes of the .zattrs:
///  - every dimension coordinate of its group (1-D, named as its dimension), whole: xarray
///    loads them to build its indexes as soon as the dataset is opened, so a missing chunk fails
///    the open (KeyError: 'time/0');
///  - the arrays its "coordinates" and "grid_mapping" attributes name, and the "bounds" of those
///    and of the dimension coordinates, along the selected elements of the dimensions they
///    share with `array` (whole along the others);
///  - the first and last element of every array of its group with CF time units ("days since
///    ...") and of their bounds (time_bnds), which xarray reads on open to choose how to decode
///    them.
/// Arrays without .zattrs or _ARRAY_DIMENSIONS are taken whole.
std::vector<ArrayBox> RelatedArrays(const IndexState& s, size_t array,
                                    const ElementRanges& elements);

}  // namespace kerchunk::pack::internal
