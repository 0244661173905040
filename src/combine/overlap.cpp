#include "combine/overlap.h"

#include <algorithm>

namespace kerchunk::internal {
namespace {

// Global attributes that name what distinguishes otherwise alike files of an ensemble or an
// experiment set (CMIP6, CORDEX, seasonal forecasts), with the dimension they usually become.
struct DimensionAttribute {
  std::string_view attribute;
  std::string_view dimension;
};
constexpr DimensionAttribute kDimensionAttributes[] = {
    {"variant_label", "member"},     {"member_id", "member"},       {"realization", "member"},
    {"realization_index", "member"}, {"ensemble_member", "member"}, {"experiment_id", "experiment"},
    {"experiment", "experiment"},
};

struct OverlapPair {
  size_t earlier, later;  // input order
  uint64_t shared;        // positions both cover
};

// Pairs of parts that share positions: each part against the one reaching furthest before it.
std::vector<OverlapPair> FindOverlaps(const Placement& placement,
                                      const std::vector<size_t>& by_start) {
  std::vector<OverlapPair> pairs;
  size_t reach_part = SIZE_MAX;
  uint64_t reach = 0;
  for (size_t p : by_start) {
    if (placement.length[p] == 0) continue;
    uint64_t start = placement.start[p], end = start + placement.length[p];
    if (reach_part != SIZE_MAX && start < reach) {
      pairs.push_back(
          {std::min(p, reach_part), std::max(p, reach_part), std::min(reach, end) - start});
    }
    if (end > reach) {
      reach = end;
      reach_part = p;
    }
  }
  return pairs;
}

// A part every position of which another part also covers, with one such other part.
struct CompleteOverlap {
  size_t covered, other;
};

std::optional<CompleteOverlap> FindCompleteOverlap(const Placement& placement) {
  std::vector<uint32_t> cover(placement.total + 1, 0);
  const size_t n = placement.start.size();
  for (size_t p = 0; p < n; ++p) {
    for (uint64_t k = 0; k < placement.length[p]; ++k) ++cover[placement.start[p] + k];
  }
  for (size_t p = 0; p < n; ++p) {
    if (placement.length[p] == 0) continue;
    uint64_t start = placement.start[p], end = start + placement.length[p];
    bool covered = std::all_of(cover.begin() + static_cast<std::ptrdiff_t>(start),
                               cover.begin() + static_cast<std::ptrdiff_t>(end),
                               [](uint32_t c) { return c >= 2; });
    if (!covered) continue;
    for (size_t q = 0; q < n; ++q) {
      if (q != p && placement.length[q] > 0 && placement.start[q] <= start &&
          start < placement.start[q] + placement.length[q]) {
        return CompleteOverlap{p, q};
      }
    }
  }
  return std::nullopt;
}

std::string Positions(uint64_t n) { return fmt::format("{} position{}", n, n == 1 ? "" : "s"); }

}  // namespace

std::string NewDimensionHint(const PartView& a, const PartView& b) {
  Result<json::Value> attrs_a = a.GlobalAttrs(), attrs_b = b.GlobalAttrs();
  if (!attrs_a.ok() || !attrs_b.ok()) return "";  // only a hint: the error stands without it
  for (const DimensionAttribute& d : kDimensionAttributes) {
    const json::Value* x = attrs_a->Find(d.attribute);
    const json::Value* y = attrs_b->Find(d.attribute);
    if (!x || !y || *x == *y) continue;
    return fmt::format(
        "; they differ in the global attribute \"{}\" ({} and {}): to keep both, concatenate "
        "along a new dimension with --concat-dim {} --coord {}=attr:{}",
        d.attribute, x->Dump(), y->Dump(), d.dimension, d.dimension, d.attribute);
  }
  return "";
}

Status ResolveOverlaps(const std::vector<PartView>& parts, Placement& placement,
                       const std::vector<size_t>& by_start, std::string_view dim,
                       OnOverlap on_overlap, std::vector<std::string>& warnings) {
  placement.earlier_wins = on_overlap == OnOverlap::kEarlier;
  std::vector<OverlapPair> pairs = FindOverlaps(placement, by_start);
  if (pairs.empty()) return OkStatus();
  if (on_overlap == OnOverlap::kDefault) {
    if (auto complete = FindCompleteOverlap(placement)) {
      const PartView& covered = parts[complete->covered];
      const PartView& other = parts[complete->other];
      return InvalidArgumentError(
          "{} adds nothing along \"{}\": each of its positions ({}) is also in {} (duplicate "
          "files, or files that differ along a dimension they do not have){}; --on-overlap "
          "later or earlier keeps one of them anyway",
          covered.label, dim, placement.length[complete->covered], other.label,
          NewDimensionHint(covered, other));
    }
  }
  for (const OverlapPair& pair : pairs) {
    const PartView& earlier = parts[pair.earlier];
    const PartView& later = parts[pair.later];
    if (on_overlap == OnOverlap::kError) {
      return InvalidArgumentError("{} and {} overlap at {} of \"{}\" (--on-overlap error){}",
                                  earlier.label, later.label, Positions(pair.shared), dim,
                                  NewDimensionHint(earlier, later));
    }
    bool earlier_wins = placement.earlier_wins;
    warnings.push_back(fmt::format(
        "{} and {} overlap at {} of \"{}\"; the {} input ({}) is used there", earlier.label,
        later.label, Positions(pair.shared), dim, earlier_wins ? "earlier" : "later",
        earlier_wins ? earlier.label : later.label));
  }
  return OkStatus();
}

}  // namespace kerchunk::internal
