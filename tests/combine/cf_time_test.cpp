#include "kerchunk/combine/cf_time.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cmath>
#include <random>

namespace kerchunk {
namespace {

using ::testing::HasSubstr;

std::vector<double> Convert(std::string_view from, std::string_view to, std::string_view calendar,
                            const std::vector<double>& values) {
  CfCalendar c = *ParseCfCalendar(calendar);
  auto conversion = CfTimeConversion::Make(*ParseCfTimeUnits(from, c), *ParseCfTimeUnits(to, c));
  EXPECT_TRUE(conversion.ok());
  std::vector<double> out;
  for (double v : values) {
    auto r = conversion->Convert(CoordinateValue::Float(v));
    EXPECT_TRUE(r.ok()) << r.status().ToString();
    out.push_back(r->AsDouble());
  }
  return out;
}

// Expected values from cftime 1.6.2:
//   cftime.date2num(cftime.num2date(values, from, calendar), to, calendar)
TEST(CfTimeTest, AgreesWithCftime) {
  EXPECT_EQ(Convert("days since 1582-10-04", "days since 1582-10-15", "standard", {0, 1, 2}),
            (std::vector<double>{-1, 0, 1}));
  EXPECT_EQ(
      Convert("days since 1582-10-04", "days since 1582-10-15", "proleptic_gregorian", {0, 1, 2}),
      (std::vector<double>{-11, -10, -9}));
  EXPECT_EQ(Convert("days since 1582-10-04", "days since 1582-10-15", "julian", {0, 1, 2}),
            (std::vector<double>{-11, -10, -9}));
  EXPECT_EQ(Convert("hours since 2000-02-28 12:00", "days since 2000-01-01", "noleap", {0, 12, 36}),
            (std::vector<double>{58.5, 59, 60}));
  EXPECT_EQ(
      Convert("hours since 2000-02-28 12:00", "days since 2000-01-01", "all_leap", {0, 12, 36}),
      (std::vector<double>{58.5, 59, 60}));
  EXPECT_EQ(Convert("days since 2000-02-30", "days since 1999-12-01", "360_day", {0, 1.5}),
            (std::vector<double>{89, 90.5}));
  EXPECT_EQ(Convert("seconds since 1970-01-01T00:00:00Z", "days since 1850-01-01", "standard",
                    {0, 108000}),
            (std::vector<double>{43829, 43830.25}));
  // 1417 + 1/7200 hours, rounded once: float(Fraction(1417 * 7200 + 1, 7200)).
  EXPECT_EQ(Convert("minutes since 1900-03-01 00:00:00.5", "hours since 1899-12-31 23:00",
                    "standard", {0, 90}),
            (std::vector<double>{1417.0001388888888, 1418.5001388888888}));
  EXPECT_EQ(Convert("days since 1-1-1", "days since 2000-1-1", "standard", {0}),
            (std::vector<double>{-730121}));
  EXPECT_EQ(Convert("days since 1850-01-01 00:00:00 +02:00", "hours since 1850-01-01", "gregorian",
                    {0, 1}),
            (std::vector<double>{-2, 22}));
}

TEST(CfTimeTest, LeapRulesPerCalendar) {
  // 1900 is a leap year in the Julian calendar only; 2000 in both.
  auto days = [](CfCalendar c, int y, int m, int d) { return *CfDayNumber(c, y, m, d); };
  EXPECT_EQ(days(CfCalendar::kJulian, 1900, 3, 1) - days(CfCalendar::kJulian, 1900, 2, 28), 2);
  EXPECT_EQ(days(CfCalendar::kProlepticGregorian, 1900, 3, 1) -
                days(CfCalendar::kProlepticGregorian, 1900, 2, 28),
            1);
  EXPECT_EQ(days(CfCalendar::kStandard, 2001, 1, 1) - days(CfCalendar::kStandard, 2000, 1, 1), 366);
  EXPECT_EQ(days(CfCalendar::kNoLeap, 2001, 1, 1) - days(CfCalendar::kNoLeap, 2000, 1, 1), 365);
  EXPECT_EQ(days(CfCalendar::kAllLeap, 2002, 1, 1) - days(CfCalendar::kAllLeap, 2001, 1, 1), 366);
  EXPECT_EQ(days(CfCalendar::k360Day, 2001, 1, 1) - days(CfCalendar::k360Day, 2000, 1, 1), 360);
  // The standard calendar jumps from 1582-10-04 to 1582-10-15.
  EXPECT_EQ(days(CfCalendar::kStandard, 1582, 10, 15) - days(CfCalendar::kStandard, 1582, 10, 4),
            1);
  EXPECT_FALSE(CfDayNumber(CfCalendar::kStandard, 1582, 10, 10).ok());
  EXPECT_FALSE(CfDayNumber(CfCalendar::kNoLeap, 2000, 2, 29).ok());
  EXPECT_TRUE(CfDayNumber(CfCalendar::k360Day, 2001, 2, 30).ok());
  EXPECT_FALSE(CfDayNumber(CfCalendar::kStandard, 2001, 13, 1).ok());
}

TEST(CfTimeTest, ParsesUnitSpellingsAndRejectsOthers) {
  auto c = CfCalendar::kStandard;
  EXPECT_EQ(ParseCfTimeUnits("Days since 1850-1-1", c)->unit_us, 86'400'000'000);
  EXPECT_EQ(ParseCfTimeUnits("hrs since 1850-01-01T06:00", c)->unit_us, 3'600'000'000);
  EXPECT_EQ(ParseCfTimeUnits("s since 1970-01-01 00:00:00 UTC", c)->unit_us, 1'000'000);
  EXPECT_EQ(ParseCfTimeUnits("  msec   since 1970-01-01  ", c)->unit_us, 1000);
  auto months = ParseCfTimeUnits("months since 2000-01-01", c);
  EXPECT_EQ(months.status().code(), StatusCode::kUnsupported);
  EXPECT_THAT(months.status().message(), HasSubstr("\"months\""));
  EXPECT_FALSE(ParseCfTimeUnits("days since Jan 1, 2000", c).ok());  // hidefix's units
  EXPECT_FALSE(ParseCfTimeUnits("days after 2000-01-01", c).ok());
  EXPECT_FALSE(ParseCfTimeUnits("days since 2000-01-01 12:00 junk", c).ok());
  EXPECT_EQ(*ParseCfCalendar(""), CfCalendar::kStandard);
}

TEST(CfTimeTest, CalendarNames) {
  EXPECT_EQ(*ParseCfCalendar("Gregorian"), CfCalendar::kStandard);
  EXPECT_EQ(*ParseCfCalendar("365_day"), CfCalendar::kNoLeap);
  EXPECT_EQ(*ParseCfCalendar("366_day"), CfCalendar::kAllLeap);
  EXPECT_EQ(CfCalendarName(CfCalendar::k360Day), "360_day");
  EXPECT_EQ(ParseCfCalendar("none").status().code(), StatusCode::kUnsupported);
  auto differ =
      CfTimeConversion::Make(*ParseCfTimeUnits("days since 2000-01-01", CfCalendar::kNoLeap),
                             *ParseCfTimeUnits("days since 2000-01-01", CfCalendar::k360Day));
  EXPECT_EQ(differ.status().code(), StatusCode::kInvalidArgument);
}

TEST(CfTimeTest, IntegersStayIntegersWhenExact) {
  auto c = CfCalendar::kStandard;
  auto conv = *CfTimeConversion::Make(*ParseCfTimeUnits("days since 2000-01-02", c),
                                      *ParseCfTimeUnits("hours since 2000-01-01", c));
  auto v = *conv.Convert(CoordinateValue::Int(3));
  EXPECT_TRUE(v.is_int);
  EXPECT_EQ(v.i, 96);
  auto back = *CfTimeConversion::Make(*ParseCfTimeUnits("hours since 2000-01-01", c),
                                      *ParseCfTimeUnits("days since 2000-01-01", c));
  auto half = *back.Convert(CoordinateValue::Int(12));
  EXPECT_FALSE(half.is_int);
  EXPECT_EQ(half.d, 0.5);
  EXPECT_FALSE(back.Convert(CoordinateValue::Float(NAN)).ok());
}

// The rounding of n / d is within half an ulp of the exact quotient, and even on ties, checked
// in exact integer arithmetic: with got = m * 2^e (2^52 <= m < 2^53), 2|m d 2^e - n| <= d 2^e.
TEST(CfTimeTest, RationalRoundingIsCorrect) {
  std::mt19937_64 rng(5);
  for (int i = 0; i < 100000; ++i) {
    Int128 d = static_cast<Int128>(rng() % 1'000'000 + 1);
    // Quotients from 1 to 2^62: both integral and fractional roundings.
    Int128 n = d + static_cast<Int128>(rng() >> (2 + rng() % 60));
    if (i % 2) {
      // Quotients below 1 down to 2^-40, whose leading zero bits the division skips at once.
      d = static_cast<Int128>((rng() >> (24 + rng() % 40)) + 2);
      n = 1 + static_cast<Int128>(rng() % static_cast<uint64_t>(d - 1));
    }
    if (rng() % 2) n = -n;
    double got = RoundRationalToDouble(n, d);
    int x = 0;
    double f = std::frexp(std::fabs(got), &x);
    Int128 m = static_cast<Int128>(std::ldexp(f, 53));
    int e = x - 53;
    Int128 a = n < 0 ? -n : n;
    Int128 twice_error, ulp_times_d;
    if (e >= 0) {
      twice_error = 2 * ((m * d << e) - a);
      ulp_times_d = d << e;
    } else {
      twice_error = 2 * (m * d - (a << -e));
      ulp_times_d = d;
    }
    if (twice_error < 0) twice_error = -twice_error;
    ASSERT_LE(twice_error, ulp_times_d)
        << static_cast<double>(n) << " / " << static_cast<double>(d);
    if (twice_error == ulp_times_d) {
      EXPECT_EQ(m % 2, 0) << "tie not rounded to even";
    }
  }
  EXPECT_EQ(RoundRationalToDouble(1, 3), 1.0 / 3.0);
  EXPECT_EQ(RoundRationalToDouble(-2, 3), -2.0 / 3.0);
  EXPECT_EQ(RoundRationalToDouble(Int128{1} << 100, 1), std::ldexp(1.0, 100));
  // Ties go to even: 2^53 + 1 lies halfway between 2^53 and 2^53 + 2.
  EXPECT_EQ(RoundRationalToDouble((Int128{1} << 53) + 1, 1), std::ldexp(1.0, 53));
  EXPECT_EQ(RoundRationalToDouble((Int128{1} << 53) + 3, 1), std::ldexp(1.0, 53) + 4);
}

}  // namespace
}  // namespace kerchunk
