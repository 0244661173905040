// Parts that already have a dimension whose coordinate holds strings: the outputs of earlier
// combines along a new dimension (the shard parts of an ensemble, members "r1i1p1f1", ...).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "combine/part_view.h"
#include "kerchunk/combine/combine.h"

namespace kerchunk::internal {

/// Whether `first`'s coordinate of `dim` is a fixed-width string array ("<U<n>", "|S<n>").
bool HasStringCoordinate(const PartView& first, std::string_view dim);

/// Combines such parts along options.concat_dim: each distinct string takes its position in
/// order of first appearance (input order, as a new dimension orders strings), the parts are
/// placed by those positions (a string in two parts is an overlap, handled as
/// options.on_overlap says) and the combined coordinate holds the strings. A CoordinateSource
/// other than data: for the dimension is ignored: the parts' own values are used (shard parts
/// are combined with the options of the scan that wrote them).
Result<ReferenceSet> CombineAlongStringCoordinate(std::vector<ReferenceSet> inputs,
                                                  const CombineOptions& options,
                                                  std::vector<std::string>& warnings);

}  // namespace kerchunk::internal
