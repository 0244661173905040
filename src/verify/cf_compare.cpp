#include "verify/cf_compare.h"

#include <fmt/format.h>

#include <cmath>

#include "refs/zarr_dtype.h"

namespace kerchunk::verify::internal {
namespace {

using kerchunk::internal::NumericType;

// Stored number `i` of `bytes` as a reader of `decoding` takes it (_Unsigned reinterprets
// signed integers).
double Load(const NumericType& type, const char* bytes, uint64_t i, const CfDecoding& decoding) {
  if (decoding.is_unsigned && type.kind == 'i') {
    uint64_t bits = type.LoadBits(bytes, i);
    if (type.size < 8) bits &= (uint64_t{1} << (8 * type.size)) - 1;
    return static_cast<double>(bits);
  }
  return type.LoadDouble(bytes, i);
}

// Readers compare stored numbers with _FillValue and missing_value cast to the variable's type
// (a float64 attribute 1e20 masks the float32 1e20 of a float32 variable).
void CastMaskValues(const NumericType& type, CfDecoding& d) {
  if (type.kind != 'f' || type.size != 4) return;
  auto cast = [](double v) { return static_cast<double>(static_cast<float>(v)); };
  if (d.fill_value) d.fill_value = cast(*d.fill_value);
  for (double& m : d.missing_values) m = cast(m);
}

std::string Shown(const std::optional<double>& v) {
  return v ? json::Value::Double(*v).Dump() : std::string("masked");
}

// What a reader shows for one element: masked, a number, or (time units) an instant.
struct Reading {
  std::optional<double> value;   // after masking, scaling and offsetting
  long double instant_us = 0;    // with time units: microseconds after the calendar's day 0
  long double tolerance_us = 0;  // the rounding the stored type allows in the instant
};

// The element as `d` decodes it; `time` when `d` has CF time units. `epsilon` is the relative
// precision of the stored type: the combine that converted time units rounds once to it.
Reading Read(const CfDecoding& d, const std::optional<CfTimeUnits>& time, double stored,
             double epsilon) {
  Reading r{d.Decode(stored)};
  if (r.value && time) {
    const long double offset = static_cast<long double>(*r.value) * time->unit_us;
    r.instant_us = time->epoch_us + offset;
    r.tolerance_us = 4 * epsilon * std::fabs(offset);
  }
  return r;
}

bool Same(const std::optional<double>& a, const std::optional<double>& b) {
  if (!a || !b) return !a && !b;
  return *a == *b || (std::isnan(*a) && std::isnan(*b));
}

bool SameReading(const Reading& a, const Reading& b, bool time) {
  if (!time) return Same(a.value, b.value);
  if (!a.value || !b.value) return !a.value && !b.value;
  if (std::isnan(*a.value) || std::isnan(*b.value))
    return std::isnan(*a.value) == std::isnan(*b.value);
  // Microseconds are the finest unit cftime keeps.
  return std::fabs(a.instant_us - b.instant_us) <= 1 + a.tolerance_us + b.tolerance_us;
}

std::string ShownReading(const Reading& r, const CfDecoding& d, bool time) {
  if (!time || !r.value) return Shown(r.value);
  return fmt::format("{} {}", Shown(r.value), d.units);
}

// Units that make a reader show other kinds of values: a time on one side only, two calendars,
// or two units of which neither is a time ("K" and "degC"). Equal units or two time units in
// one calendar compare element by element instead.
std::optional<std::string> UnitsMismatch(const CfDecoding& index, const CfDecoding& own,
                                         const std::optional<CfTimeUnits>& index_time,
                                         const std::optional<CfTimeUnits>& own_time) {
  if (index_time && own_time) {
    if (index_time->calendar == own_time->calendar) return std::nullopt;
    return fmt::format("calendar \"{}\" in the index but \"{}\"",
                       CfCalendarName(index_time->calendar), CfCalendarName(own_time->calendar));
  }
  if (index.units == own.units ||
      (!index_time && !own_time && (index.units.empty() || own.units.empty()))) {
    return std::nullopt;
  }
  return fmt::format("units \"{}\" in the index but \"{}\"", index.units, own.units);
}

}  // namespace

bool TimesInOtherUnits(const CfDecoding& index, const CfDecoding& own) {
  const std::optional<CfTimeUnits> a = index.Time(), b = own.Time();
  return a && b && a->calendar == b->calendar && index.units != own.units;
}

Status CompareDecoded(SourceDataset& ds, const ArrayInfo& info, const CfDecoding& index,
                      CfDecoding own, const ChunkRegion& global, const ChunkRegion& local,
                      const std::string& decoded, const std::string& file_values,
                      const std::string& file, CaseLog& log, const std::string& key) {
  std::optional<NumericType> type = NumericType::Parse(info.meta->dtype);
  if (!type) return OkStatus();
  if (!own.fill_value) own.fill_value = index.fill_value;
  CfDecoding ours_decoding = index;
  CastMaskValues(*type, own);
  CastMaskValues(*type, ours_decoding);
  if (own == ours_decoding) return OkStatus();
  const std::optional<CfTimeUnits> our_time = ours_decoding.Time(), their_time = own.Time();
  if (std::optional<std::string> mismatch = UnitsMismatch(index, own, our_time, their_time)) {
    log.Fail(key, fmt::format("{}: a reader sees other values: {} of {} in {} ({}; index: {})", key,
                              *mismatch, ds.Describe(), file, own.Describe(), index.Describe()));
    return OkStatus();
  }
  const bool time = our_time && their_time;
  const double epsilon = type->kind == 'f' && type->size == 4 ? 0x1p-23 : 0x1p-52;
  uint64_t elements = 1;
  for (uint64_t c : local.count) elements *= c;
  for (uint64_t e = 0; e < elements; ++e) {
    const uint64_t at = ChunkOffsetOf(e, local.count, info.meta->chunks, type->size) / type->size;
    const Reading ours =
        Read(ours_decoding, our_time, Load(*type, decoded.data(), at, ours_decoding), epsilon);
    const Reading theirs = Read(own, their_time, Load(*type, file_values.data(), e, own), epsilon);
    if (SameReading(ours, theirs, time)) continue;
    std::vector<uint64_t> where = Unravel(e, local.count);
    for (size_t d = 0; d < where.size(); ++d) where[d] += global.start[d];
    log.Fail(key, fmt::format("{}: element ({}) reads as {} through the index's attributes ({}) "
                              "but as {} through those of {} in {} ({})",
                              key, fmt::join(where, ", "), ShownReading(ours, ours_decoding, time),
                              index.Describe(), ShownReading(theirs, own, time), ds.Describe(),
                              file, own.Describe()));
    return OkStatus();
  }
  return OkStatus();
}

}  // namespace kerchunk::verify::internal
