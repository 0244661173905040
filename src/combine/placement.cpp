#include "combine/placement.h"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "combine/overlap.h"
#include "util/sorted_runs.h"

namespace kerchunk::internal {
namespace {

std::string Show(const CoordinateValue& v) {
  return v.is_int ? std::to_string(v.i) : fmt::format("{}", v.d);
}

bool Less(const CoordinateValue& a, const CoordinateValue& b) { return (a <=> b) < 0; }

Status CheckIncreasing(const PartView& part, const std::vector<CoordinateValue>& v,
                       std::string_view dim) {
  for (size_t k = 0; k < v.size(); ++k) {
    if (!v[k].is_int && std::isnan(v[k].d)) {
      return InvalidArgumentError("{}: coordinate \"{}\" value {} is NaN", part.label, dim, k);
    }
    if (k > 0 && !Less(v[k - 1], v[k])) {
      return InvalidArgumentError(
          "{}: coordinate \"{}\" must increase strictly, got {} then {} at index {}", part.label,
          dim, Show(v[k - 1]), Show(v[k]), k);
    }
  }
  return OkStatus();
}

// The sorted set of all values. When parts, taken in order of their first value, follow each
// other without overlapping (the usual case), that is their concatenation; otherwise each
// part's values (increasing: checked before) are merged.
std::vector<CoordinateValue> Union(const std::vector<std::vector<CoordinateValue>>& values,
                                   const std::vector<size_t>& by_start) {
  std::vector<CoordinateValue> all;
  bool disjoint = true;
  const CoordinateValue* last = nullptr;
  for (size_t p : by_start) {
    if (values[p].empty()) continue;
    if (last && !Less(*last, values[p].front())) disjoint = false;
    all.insert(all.end(), values[p].begin(), values[p].end());
    last = &values[p].back();
  }
  if (!disjoint) {
    SortByMergingRuns(all, Less);
    all.erase(std::unique(all.begin(), all.end()), all.end());
  }
  return all;
}

// The part (other than `self`) holding value v, for error messages.
std::string Holder(const std::vector<PartView>& parts,
                   const std::vector<std::vector<CoordinateValue>>& values, size_t self,
                   const CoordinateValue& v) {
  for (size_t p = 0; p < parts.size(); ++p) {
    if (p != self && std::binary_search(values[p].begin(), values[p].end(), v, Less)) {
      return parts[p].label;
    }
  }
  return "another part";
}

}  // namespace

Result<Placement> PlaceByCoordinate(const std::vector<PartView>& parts,
                                    std::vector<std::vector<CoordinateValue>> values,
                                    std::string_view dim, OnOverlap on_overlap,
                                    std::vector<std::string>& warnings) {
  for (size_t p = 0; p < parts.size(); ++p) {
    KERCHUNK_RETURN_IF_ERROR(CheckIncreasing(parts[p], values[p], dim));
  }
  std::vector<size_t> by_start(parts.size());
  std::iota(by_start.begin(), by_start.end(), 0);
  std::stable_sort(by_start.begin(), by_start.end(), [&](size_t a, size_t b) {
    if (values[a].empty() || values[b].empty()) return !values[a].empty() && values[b].empty();
    return Less(values[a].front(), values[b].front());
  });
  Placement out;
  out.values = Union(values, by_start);
  out.total = out.values.size();
  out.start.resize(parts.size());
  out.length.resize(parts.size());
  for (size_t p = 0; p < parts.size(); ++p) {
    const auto& v = values[p];
    out.length[p] = v.size();
    if (v.empty()) continue;
    auto it = std::lower_bound(out.values.begin(), out.values.end(), v.front(), Less);
    uint64_t start = static_cast<uint64_t>(it - out.values.begin());
    out.start[p] = start;
    for (size_t k = 1; k < v.size(); ++k) {
      if (!(out.values[start + k] == v[k])) {
        return InvalidArgumentError(
            "{}: coordinate \"{}\" values interleave with those of {} ({} lies between {} and "
            "{}); each file must cover a contiguous range",
            parts[p].label, dim, Holder(parts, values, p, out.values[start + k]),
            Show(out.values[start + k]), Show(v[k - 1]), Show(v[k]));
      }
    }
  }
  KERCHUNK_RETURN_IF_ERROR(ResolveOverlaps(parts, out, by_start, dim, on_overlap, warnings));
  return out;
}

Placement PlaceInInputOrder(const std::vector<uint64_t>& lengths) {
  Placement out;
  for (uint64_t n : lengths) {
    out.start.push_back(out.total);
    out.length.push_back(n);
    out.total += n;
  }
  return out;
}

Status CheckChunkAlignment(const std::vector<PartView>& parts, const Placement& placement,
                           const std::string& variable, std::string_view dim, uint64_t extent) {
  for (size_t p = 0; p < parts.size(); ++p) {
    uint64_t start = placement.start[p], end = start + placement.length[p];
    if (placement.length[p] == 0) continue;
    if (start % extent != 0 || (end % extent != 0 && end != placement.total)) {
      return InvalidArgumentError(
          "{}: variable \"{}\": its {} steps along \"{}\" land at positions [{}, {}) of {}, which "
          "do not start and end on its chunk boundaries (every {} steps); this needs rechunking",
          parts[p].label, variable, placement.length[p], dim, start, end, placement.total, extent);
    }
  }
  return OkStatus();
}

}  // namespace kerchunk::internal
