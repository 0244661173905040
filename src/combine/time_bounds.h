// The bounds variable of the concat coordinate (CF "bounds", e.g. time_bnds). When files count
// time in different units, the coordinate is converted to the first file's units; its bounds
// must be too, or their numbers mean other dates. References cannot rewrite bytes, so the
// converted bounds are stored inline, as the coordinate is.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "combine/part_view.h"
#include "combine/placement.h"
#include "kerchunk/combine/cf_time.h"

namespace kerchunk::internal {

/// The variable the first part's coordinate `coordinate` names in its "bounds" attribute, when
/// it is concatenated with the concat dimension first (CF bounds: (time, nv)); else nullptr.
const VariablePlan* FindBoundsPlan(const PartView& first, const std::string& coordinate,
                                   const std::vector<VariablePlan>& plan);

/// The combined bounds values in the first part's units, row-major over [placement.total, ...]:
/// every part's values (decoded with its codecs, a missing chunk as the fill value) converted
/// exactly when its units differ from the first part's, laid out as the placement says (where
/// parts overlap, the later one's rows). A part's units are its bounds variable's own "units"
/// and "calendar" when it has them, else its coordinate's. The values are also rebuilt when
/// the parts' chunk shapes differ (outputs of earlier combines, each bounds one inline chunk).
/// nullopt when neither applies: the references are kept. When a part's bounds cannot be
/// converted (units that are not CF time units, calendars that differ, values that are not
/// numbers): InvalidArgument naming the part, or with OnAttributeConflict::kFirst (and equal
/// chunk shapes) nullopt and a warning saying the bounds keep each file's units.
Result<std::optional<std::vector<CoordinateValue>>> ConvertBounds(
    const std::vector<PartView>& parts, const VariablePlan& bounds, const std::string& coordinate,
    const Placement& placement, const CombineOptions& options, const UrlToPath& url_to_path,
    std::vector<std::string>& warnings);

}  // namespace kerchunk::internal
