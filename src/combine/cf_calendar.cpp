// CF calendars, day numbers and "<unit> since <date>" parsing (see cf_time.h).
#include <algorithm>
#include <array>
#include <cctype>
#include <charconv>
#include <string>

#include "kerchunk/combine/cf_time.h"

namespace kerchunk {
namespace {

constexpr int64_t kMicrosPerSecond = 1'000'000;
constexpr int64_t kMicrosPerDay = 86'400 * kMicrosPerSecond;

std::string Lower(std::string_view s) {
  std::string out(s);
  for (auto& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

std::string_view Trim(std::string_view s) {
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.front()))) s.remove_prefix(1);
  while (!s.empty() && std::isspace(static_cast<unsigned char>(s.back()))) s.remove_suffix(1);
  return s;
}

bool GregorianLeap(int64_t y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }
bool JulianLeap(int64_t y) { return y % 4 == 0; }

// Julian Day Numbers (valid for years after -4800): the standard calendar switches from the
// Julian to the Gregorian formula at 1582-10-15 (JDN 2299161), the day after 1582-10-04.
int64_t GregorianJdn(int64_t y, int m, int d) {
  int64_t a = (14 - m) / 12, yy = y + 4800 - a, mm = m + 12 * a - 3;
  return d + (153 * mm + 2) / 5 + 365 * yy + yy / 4 - yy / 100 + yy / 400 - 32045;
}
int64_t JulianJdn(int64_t y, int m, int d) {
  int64_t a = (14 - m) / 12, yy = y + 4800 - a, mm = m + 12 * a - 3;
  return d + (153 * mm + 2) / 5 + 365 * yy + yy / 4 - 32083;
}

constexpr std::array<int, 12> kMonthDays = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};

int DaysInMonth(CfCalendar c, int64_t y, int m) {
  switch (c) {
    case CfCalendar::k360Day:
      return 30;
    case CfCalendar::kNoLeap:
      return kMonthDays[m - 1];
    case CfCalendar::kAllLeap:
      return m == 2 ? 29 : kMonthDays[m - 1];
    case CfCalendar::kJulian:
      return m == 2 && JulianLeap(y) ? 29 : kMonthDays[m - 1];
    case CfCalendar::kProlepticGregorian:
      return m == 2 && GregorianLeap(y) ? 29 : kMonthDays[m - 1];
    case CfCalendar::kStandard:
      bool leap = (y < 1582 ? JulianLeap(y) : GregorianLeap(y));
      return m == 2 && leap ? 29 : kMonthDays[m - 1];
  }
  return 0;
}

// Days before month m in a year of fixed-length months.
int64_t DaysBeforeMonth(int m, bool leap) {
  int64_t n = 0;
  for (int k = 1; k < m; ++k) n += (k == 2 && leap) ? 29 : kMonthDays[k - 1];
  return n;
}

// Reads an unsigned decimal number of 1..max_digits digits from the front of s.
bool ReadNumber(std::string_view& s, int max_digits, int64_t& out) {
  size_t n = 0;
  while (n < s.size() && n < static_cast<size_t>(max_digits) &&
         std::isdigit(static_cast<unsigned char>(s[n]))) {
    ++n;
  }
  if (n == 0) return false;
  std::from_chars(s.data(), s.data() + n, out);
  s.remove_prefix(n);
  return true;
}

bool Consume(std::string_view& s, char c) {
  if (s.empty() || s.front() != c) return false;
  s.remove_prefix(1);
  return true;
}

Result<int64_t> ParseUnit(std::string_view word) {
  std::string w = Lower(word);
  if (w == "days" || w == "day" || w == "d") return kMicrosPerDay;
  if (w == "hours" || w == "hour" || w == "hrs" || w == "hr" || w == "h") {
    return 3600 * kMicrosPerSecond;
  }
  if (w == "minutes" || w == "minute" || w == "mins" || w == "min") return 60 * kMicrosPerSecond;
  if (w == "seconds" || w == "second" || w == "secs" || w == "sec" || w == "s") {
    return kMicrosPerSecond;
  }
  if (w == "milliseconds" || w == "millisecond" || w == "msecs" || w == "msec" || w == "ms") {
    return 1000;
  }
  if (w == "microseconds" || w == "microsecond" || w == "usecs" || w == "usec" || w == "us") {
    return 1;
  }
  return UnsupportedError("time unit \"{}\" has no fixed length in microseconds", word);
}

// "hh:mm[:ss[.ffffff]]" -> microseconds.
Result<int64_t> ParseTimeOfDay(std::string_view& s, std::string_view units) {
  int64_t h = 0, mi = 0, sec = 0, frac = 0;
  if (!ReadNumber(s, 2, h) || !Consume(s, ':') || !ReadNumber(s, 2, mi)) {
    return InvalidArgumentError("time units \"{}\": expected hh:mm after the date", units);
  }
  if (Consume(s, ':')) {
    if (!ReadNumber(s, 2, sec)) {
      return InvalidArgumentError("time units \"{}\": expected seconds after hh:mm:", units);
    }
    if (Consume(s, '.')) {
      int digits = 0;
      while (!s.empty() && std::isdigit(static_cast<unsigned char>(s.front()))) {
        int digit = s.front() - '0';
        if (digits < 6) {
          frac = frac * 10 + digit;
        } else if (digit != 0) {
          return UnsupportedError("time units \"{}\": reference time finer than 1 microsecond",
                                  units);
        }
        ++digits;
        s.remove_prefix(1);
      }
      for (; digits < 6; ++digits) frac *= 10;
    }
  }
  if (h > 24 || mi > 59 || sec > 60) {
    return InvalidArgumentError("time units \"{}\": invalid time of day", units);
  }
  return ((h * 60 + mi) * 60 + sec) * kMicrosPerSecond + frac;
}

// "Z", "UTC", "GMT", "+hh", "+hh:mm", "-hhmm" -> offset in microseconds (east positive).
Result<int64_t> ParseZone(std::string_view s, std::string_view units) {
  s = Trim(s);
  std::string z = Lower(s);
  if (z.empty() || z == "z" || z == "utc" || z == "gmt") return int64_t{0};
  int sign = 0;
  if (s.front() == '+') sign = 1;
  if (s.front() == '-') sign = -1;
  int64_t hh = 0, mm = 0;
  if (sign != 0) {
    s.remove_prefix(1);
    if (ReadNumber(s, 2, hh)) {
      Consume(s, ':');
      if (!s.empty()) ReadNumber(s, 2, mm);
      if (s.empty() && hh <= 14 && mm < 60) return sign * (hh * 60 + mm) * 60 * kMicrosPerSecond;
    }
  }
  return InvalidArgumentError("time units \"{}\": unrecognised text \"{}\" after the date", units,
                              z);
}

}  // namespace

Result<CfCalendar> ParseCfCalendar(std::string_view name) {
  std::string n = Lower(Trim(name));
  if (n.empty() || n == "standard" || n == "gregorian") return CfCalendar::kStandard;
  if (n == "proleptic_gregorian") return CfCalendar::kProlepticGregorian;
  if (n == "julian") return CfCalendar::kJulian;
  if (n == "noleap" || n == "365_day") return CfCalendar::kNoLeap;
  if (n == "all_leap" || n == "366_day") return CfCalendar::kAllLeap;
  if (n == "360_day") return CfCalendar::k360Day;
  return UnsupportedError("calendar \"{}\" is not supported", name);
}

std::string_view CfCalendarName(CfCalendar calendar) {
  switch (calendar) {
    case CfCalendar::kStandard:
      return "standard";
    case CfCalendar::kProlepticGregorian:
      return "proleptic_gregorian";
    case CfCalendar::kJulian:
      return "julian";
    case CfCalendar::kNoLeap:
      return "noleap";
    case CfCalendar::kAllLeap:
      return "all_leap";
    case CfCalendar::k360Day:
      return "360_day";
  }
  return "?";
}

Result<int64_t> CfDayNumber(CfCalendar c, int64_t year, int month, int day) {
  if (year < -4000 || year > 100000 || month < 1 || month > 12 || day < 1 ||
      day > DaysInMonth(c, year, month)) {
    return InvalidArgumentError("{:04}-{:02}-{:02} is not a date of the {} calendar", year, month,
                                day, CfCalendarName(c));
  }
  switch (c) {
    case CfCalendar::k360Day:
      return year * 360 + (month - 1) * 30 + (day - 1);
    case CfCalendar::kNoLeap:
      return year * 365 + DaysBeforeMonth(month, false) + (day - 1);
    case CfCalendar::kAllLeap:
      return year * 366 + DaysBeforeMonth(month, true) + (day - 1);
    case CfCalendar::kJulian:
      return JulianJdn(year, month, day);
    case CfCalendar::kProlepticGregorian:
      return GregorianJdn(year, month, day);
    case CfCalendar::kStandard: {
      int64_t key = (year * 100 + month) * 100 + day;
      if (key >= 15821015) return GregorianJdn(year, month, day);
      if (key <= 15821004) return JulianJdn(year, month, day);
      return InvalidArgumentError("{}-{:02}-{:02} falls in the 1582 Julian-Gregorian gap", year,
                                  month, day);
    }
  }
  return InternalError("unknown calendar");
}

Result<CfTimeUnits> ParseCfTimeUnits(std::string_view units, CfCalendar calendar) {
  std::string_view s = Trim(units);
  size_t space = s.find_first_of(" \t");
  if (space == std::string_view::npos) {
    return InvalidArgumentError("time units \"{}\": expected \"<unit> since <date>\"", units);
  }
  CfTimeUnits out;
  out.calendar = calendar;
  KERCHUNK_ASSIGN_OR_RETURN(out.unit_us, ParseUnit(s.substr(0, space)));
  s = Trim(s.substr(space));
  if (Lower(s.substr(0, 6)) != "since ") {
    return InvalidArgumentError("time units \"{}\": expected \"since\" after the unit", units);
  }
  s = Trim(s.substr(6));
  bool negative_year = Consume(s, '-');
  int64_t y = 0, m = 0, d = 0;
  if (!ReadNumber(s, 6, y) || !Consume(s, '-') || !ReadNumber(s, 2, m) || !Consume(s, '-') ||
      !ReadNumber(s, 2, d)) {
    return InvalidArgumentError("time units \"{}\": expected a Y-M-D reference date", units);
  }
  if (negative_year) y = -y;
  KERCHUNK_ASSIGN_OR_RETURN(int64_t day_number,
                            CfDayNumber(calendar, y, static_cast<int>(m), static_cast<int>(d))
                                .Annotate("time units \"{}\"", units));
  int64_t time_of_day = 0;
  if (!s.empty() && (s.front() == 'T' || s.front() == ' ')) {
    std::string_view rest = Trim(s.substr(1));
    if (!rest.empty() && std::isdigit(static_cast<unsigned char>(rest.front()))) {
      s = rest;
      KERCHUNK_ASSIGN_OR_RETURN(time_of_day, ParseTimeOfDay(s, units));
    }
  }
  KERCHUNK_ASSIGN_OR_RETURN(int64_t zone, ParseZone(s, units));
  out.epoch_us = day_number * kMicrosPerDay + time_of_day - zone;
  return out;
}

}  // namespace kerchunk
