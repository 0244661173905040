// Where each part lands along the concat dimension, as MultiZarrToZarr places it: the combined
// coordinate is the sorted set of all parts' values, and a part starts at the position of its
// first value. Parts whose ranges overlap share positions (the later input wins, key by key).
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "combine/part_view.h"
#include "kerchunk/combine/cf_time.h"

namespace kerchunk::internal {

struct Placement {
  uint64_t total = 0;                   ///< length of the combined concat dimension
  std::vector<uint64_t> start;          ///< per part (input order): first position
  std::vector<uint64_t> length;         ///< per part: number of positions it covers
  std::vector<CoordinateValue> values;  ///< the combined coordinate; empty without one
  /// Where parts overlap, the earlier part's references win (OnOverlap::kEarlier); otherwise
  /// the later part's.
  bool earlier_wins = false;
};

/// Places parts by their coordinate values (already in the first part's units). Each part's
/// values must be strictly increasing and form a contiguous run of the sorted union (values of
/// one part may not fall between values of another). Overlaps are handled as `on_overlap` says
/// (combine.h): warnings or an error naming both parts. Errors name the part and the offending
/// values.
Result<Placement> PlaceByCoordinate(const std::vector<PartView>& parts,
                                    std::vector<std::vector<CoordinateValue>> values,
                                    std::string_view dim, OnOverlap on_overlap,
                                    std::vector<std::string>& warnings);

/// Places parts one after another in input order (used when the concat dimension has no
/// coordinate variable).
Placement PlaceInInputOrder(const std::vector<uint64_t>& lengths);

/// Checks that every part of a variable with chunk extent `extent` along the concat dimension
/// starts on a chunk boundary and ends on one or at the end of the combined dimension; anything
/// else would need rechunking. The error names the part and the variable.
Status CheckChunkAlignment(const std::vector<PartView>& parts, const Placement& placement,
                           const std::string& variable, std::string_view dim, uint64_t extent);

}  // namespace kerchunk::internal
