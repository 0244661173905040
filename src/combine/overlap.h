// Inputs that cover the same positions of the concat dimension: which one wins, and when
// that would silently drop a whole input (OnOverlap in combine.h).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "combine/part_view.h"
#include "combine/placement.h"

namespace kerchunk::internal {

/// Applies `on_overlap` to the parts' positions: sets placement.earlier_wins, appends one
/// warning per overlapping pair, or returns InvalidArgument naming both parts (a complete
/// overlap by default, any overlap with OnOverlap::kError). `by_start`: part indexes in order
/// of their start position.
Status ResolveOverlaps(const std::vector<PartView>& parts, Placement& placement,
                       const std::vector<size_t>& by_start, std::string_view dim,
                       OnOverlap on_overlap, std::vector<std::string>& warnings);

/// "; they differ in the global attribute ..." with the options that concatenate along a new
/// dimension, when `a` and `b` differ in a global attribute that usually names an ensemble
/// member or an experiment (variant_label, realization, member_id, experiment_id, ...); else "".
std::string NewDimensionHint(const PartView& a, const PartView& b);

}  // namespace kerchunk::internal
