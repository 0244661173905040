// Concatenation along a dimension the inputs do not have (an ensemble's "member", an
// experiment set's "experiment"): each input's value comes from a CoordinateSource, inputs are
// grouped by value, and the varying variables of each group gain the new leading dimension.
#pragma once

#include <string>
#include <vector>

#include "combine/dimension_values.h"
#include "combine/part_view.h"
#include "kerchunk/combine/combine.h"

namespace kerchunk::internal {

/// Whether CombineReferenceSets must take the new-dimension path: outer dimensions are given,
/// or no variable of the first part has options.concat_dim.
bool NeedsNewDimension(const PartView& first, const CombineOptions& options);

/// Combines along the first of options.outer_dims + concat_dim, a new dimension (see
/// combine.h). Warnings are appended to `warnings`.
Result<ReferenceSet> CombineAlongNewDimension(std::vector<ReferenceSet> inputs,
                                              const CombineOptions& options,
                                              std::vector<std::string>& warnings);

}  // namespace kerchunk::internal
