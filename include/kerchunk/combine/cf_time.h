// CF time coordinates ("days since 1850-01-01", calendar "noleap"): parsing units and calendars,
// and converting values between units exactly, as combine needs when files of one time series
// use different reference dates or units.
//
// Conversion is exact rational arithmetic in microseconds (128-bit integers): a value v in
// units (u1 since e1) becomes (v * u1 + (e1 - e2)) / u2 in units (u2 since e2). The result is
// kept as an integer when it is one; otherwise it is rounded once to the nearest double, ties
// to even. Nothing goes through a floating-point date.
#pragma once

#include <compare>
#include <cstdint>
#include <string>
#include <string_view>

#include "kerchunk/util/status.h"

namespace kerchunk {

/// The CF calendars (CF conventions 1.10 §4.4.1) that cftime also implements.
enum class CfCalendar {
  kStandard,            ///< "standard"/"gregorian": Julian before 1582-10-15, Gregorian after
  kProlepticGregorian,  ///< Gregorian rules for all dates
  kJulian,              ///< Julian rules for all dates
  kNoLeap,              ///< "noleap"/"365_day"
  kAllLeap,             ///< "all_leap"/"366_day"
  k360Day,              ///< twelve 30-day months
};

/// Parses a calendar attribute (case-insensitive; empty means "standard" as CF says).
/// Unsupported for "none" and unknown names.
Result<CfCalendar> ParseCfCalendar(std::string_view name);
/// The canonical name, e.g. "noleap" for kNoLeap.
std::string_view CfCalendarName(CfCalendar calendar);

/// Day number of a date in a calendar (days since an arbitrary fixed day of that calendar; only
/// differences are meaningful). InvalidArgument for dates the calendar does not have (Feb 30
/// outside 360_day, 1582-10-10 in the standard calendar, month 13, ...). Years use astronomical
/// numbering (year 0 = 1 BC) and must lie in [-4000, 100000].
Result<int64_t> CfDayNumber(CfCalendar calendar, int64_t year, int month, int day);

/// Parsed "<unit> since <reference date>".
struct CfTimeUnits {
  int64_t unit_us = 0;   ///< microseconds per unit: 1 (microseconds) ... 86'400'000'000 (days)
  int64_t epoch_us = 0;  ///< the reference instant, microseconds after the calendar's day 0
  CfCalendar calendar = CfCalendar::kStandard;
};

/// Parses CF time units. Units: microseconds, milliseconds, seconds, minutes, hours, days (with
/// the usual abbreviations, e.g. "s", "sec", "hr", "d"). Dates: "Y-M-D", optionally followed by
/// " " or "T" and "h:m", "h:m:s" or "h:m:s.ffffff", optionally followed by "Z", "UTC" or an
/// offset "+hh:mm"/"-hhmm" (subtracted, as cftime does). Unsupported for months/years (no
/// fixed length) and for anything else.
Result<CfTimeUnits> ParseCfTimeUnits(std::string_view units, CfCalendar calendar);

/// A coordinate value: an exact 64-bit integer or a double, ordered exactly across both.
struct CoordinateValue {
  bool is_int = false;
  int64_t i = 0;
  double d = 0;

  static CoordinateValue Int(int64_t v) { return {true, v, 0}; }
  static CoordinateValue Float(double v) { return {false, 0, v}; }
  /// The value as a double (rounded to nearest for integers beyond 2^53).
  double AsDouble() const { return is_int ? static_cast<double>(i) : d; }

  /// Exact comparison (no rounding of integers to doubles). NaN is unordered.
  std::partial_ordering operator<=>(const CoordinateValue& o) const;
  bool operator==(const CoordinateValue& o) const { return (*this <=> o) == 0; }
};

/// An exact map from values in units `from` to values in units `to` (same calendar).
class CfTimeConversion {
 public:
  /// InvalidArgument when the calendars differ (dates would move, not just be renumbered).
  static Result<CfTimeConversion> Make(const CfTimeUnits& from, const CfTimeUnits& to);

  /// True when values are unchanged (same unit and reference instant).
  bool identity() const { return num_ == den_ && offset_ == 0; }

  /// The converted value: an integer when the exact result is an integer that fits 64 bits,
  /// else the exact result rounded to the nearest double (ties to even). InvalidArgument for
  /// NaN/infinite values and for values so large or fine that the exact arithmetic would
  /// overflow 128 bits.
  Result<CoordinateValue> Convert(const CoordinateValue& v) const;

 private:
  // out = (in * num_ + offset_) / den_, with den_ > 0.
  int64_t num_ = 1;
  int64_t offset_ = 0;
  int64_t den_ = 1;
};

/// 128-bit integers of GCC and Clang (__extension__ keeps -Wpedantic quiet).
__extension__ typedef __int128 Int128;
__extension__ typedef unsigned __int128 UInt128;

/// The rational n / d (0 < d < 2^126) rounded to the nearest double, ties to even.
double RoundRationalToDouble(Int128 n, Int128 d);

}  // namespace kerchunk
