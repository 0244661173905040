#include "combine/time_bounds.h"

#include <algorithm>

#include "combine/coordinate.h"
#include "kerchunk/util/parallel.h"

namespace kerchunk::internal {
namespace {

// The units a part's bounds count in: their own attribute, else the coordinate's (CF lets
// bounds inherit them).
struct BoundsUnits {
  std::string units;
  std::string calendar;
};

std::string Attr(const PartVariable& bounds, const PartVariable& coordinate,
                 std::string_view name) {
  const json::Value* v = bounds.attrs.Find(name);
  if (!v) v = coordinate.attrs.Find(name);
  return v && v->is_string() ? v->as_string() : std::string();
}

BoundsUnits UnitsOf(const PartView& part, const std::string& bounds,
                    const std::string& coordinate) {
  const PartVariable& b = *part.Find(bounds);
  const PartVariable& c = *part.Find(coordinate);
  return {Attr(b, c, "units"), Attr(b, c, "calendar")};
}

// How one part's values become the first part's: nullopt when they already are.
Result<std::optional<CfTimeConversion>> PartConversion(const BoundsUnits& from,
                                                       const BoundsUnits& to) {
  if (from.units == to.units && from.calendar == to.calendar) {
    return std::optional<CfTimeConversion>();
  }
  return TimeConversion(from.units, from.calendar, to.units, to.calendar);
}

Status CannotConvert(const PartView& part, const std::string& bounds, const BoundsUnits& from,
                     const BoundsUnits& to, const Status& why) {
  return InvalidArgumentError(
      "{}: \"{}\", the bounds of the concat coordinate, count in \"{}\" (calendar \"{}\") but "
      "the first part's in \"{}\" (\"{}\"), and cannot be converted: {} (--on-attribute-conflict "
      "first keeps each file's values)",
      part.label, bounds, from.units, from.calendar, to.units, to.calendar, why.message());
}

// Reads and converts one part's bounds; `conversion` is empty for the parts already in the
// first part's units.
Result<std::vector<CoordinateValue>> PartValues(const PartView& part, const std::string& bounds,
                                                const std::optional<CfTimeConversion>& conversion,
                                                const UrlToPath& url_to_path) {
  KERCHUNK_ASSIGN_OR_RETURN(auto values, ReadArrayValues(part, *part.Find(bounds), url_to_path));
  if (!conversion) return values;
  for (size_t i = 0; i < values.size(); ++i) {
    KERCHUNK_ASSIGN_OR_RETURN(values[i], conversion->Convert(values[i]).Annotate(
                                             "{}: \"{}\" value {}", part.label, bounds, i));
  }
  return values;
}

}  // namespace

const VariablePlan* FindBoundsPlan(const PartView& first, const std::string& coordinate,
                                   const std::vector<VariablePlan>& plan) {
  const PartVariable* c = first.Find(coordinate);
  const json::Value* name = c ? c->attrs.Find("bounds") : nullptr;
  if (!name || !name->is_string()) return nullptr;
  for (const VariablePlan& v : plan) {
    if (v.path == name->as_string() && v.role == VariableRole::kConcatenated && v.axis == 0) {
      return &v;
    }
  }
  return nullptr;
}

Result<std::optional<std::vector<CoordinateValue>>> ConvertBounds(
    const std::vector<PartView>& parts, const VariablePlan& bounds, const std::string& coordinate,
    const Placement& placement, const CombineOptions& options, const UrlToPath& url_to_path,
    std::vector<std::string>& warnings) {
  const BoundsUnits to = UnitsOf(parts[0], bounds.path, coordinate);
  // Parts that were combined before store their bounds in one chunk each: references to them
  // cannot share a chunk grid, so the values are rebuilt whatever the units.
  const std::vector<uint64_t>& first_chunks = parts[0].Find(bounds.path)->meta.chunks;
  bool rebuild = false;
  for (const PartView& part : parts) {
    rebuild = rebuild || part.Find(bounds.path)->meta.chunks != first_chunks;
  }
  std::vector<std::optional<CfTimeConversion>> conversions(parts.size());
  for (const PartView& part : parts) {
    const BoundsUnits from = UnitsOf(part, bounds.path, coordinate);
    auto conversion = PartConversion(from, to);
    if (!conversion.ok()) {
      Status error = CannotConvert(part, bounds.path, from, to, conversion.status());
      if (options.on_attribute_conflict == OnAttributeConflict::kError || rebuild) return error;
      warnings.push_back(std::string(error.message()) + "; kept in each file's units");
      return std::optional<std::vector<CoordinateValue>>();
    }
    rebuild = rebuild || conversion->has_value();
    conversions[part.index] = std::move(*conversion);
  }
  if (!rebuild) return std::optional<std::vector<CoordinateValue>>();

  std::vector<std::vector<CoordinateValue>> values(parts.size());
  std::vector<Status> errors(parts.size());
  ParallelFor(parts.size(), ResolveThreads(options.threads), [&](size_t p) {
    auto read = PartValues(parts[p], bounds.path, conversions[p], url_to_path);
    if (read.ok()) {
      values[p] = std::move(*read);
    } else {
      errors[p] = read.status();
    }
  });
  for (const Status& s : errors) KERCHUNK_RETURN_IF_ERROR(s);
  // Rows of the combined array; where parts overlap, the winner's rows, as for their chunk
  // references (the later part, or the earlier with placement.earlier_wins).
  const std::vector<uint64_t>& shape = parts[0].Find(bounds.path)->meta.shape;
  uint64_t row = 1;
  for (size_t d = 1; d < shape.size(); ++d) row *= shape[d];
  std::vector<CoordinateValue> combined(placement.total * row);
  for (size_t i = 0; i < parts.size(); ++i) {
    size_t p = placement.earlier_wins ? parts.size() - 1 - i : i;
    std::copy(values[p].begin(), values[p].end(),
              combined.begin() + static_cast<std::ptrdiff_t>(placement.start[p] * row));
  }
  if (std::any_of(conversions.begin(), conversions.end(), [](auto& c) { return c.has_value(); })) {
    warnings.push_back(
        fmt::format("\"{}\" (bounds of \"{}\") converted with it to \"{}\" and stored inline",
                    bounds.path, coordinate, to.units));
  }
  return std::optional(std::move(combined));
}

}  // namespace kerchunk::internal
