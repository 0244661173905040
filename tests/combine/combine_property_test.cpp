// Associativity, the property sharded scans rely on: combining groups of parts and then the
// groups' results gives exactly what combining all parts at once gives, for random series
// (lengths, overlaps, chunking, units, dtypes) and random contiguous groupings, nested up to
// three levels.
#include <gtest/gtest.h>

#include <random>

#include "combine/synthetic_parts.h"
#include "kerchunk/combine/combine.h"
#include "support/refs_testing.h"

namespace kerchunk {
namespace {

using testing::MakePart;
using testing::PartSpec;

// A random time series split into parts, as files of one dataset are: contiguous in time, in
// time order, sometimes overlapping by one step, each with its own units.
// The series below overlap by one step, which for a one-step part is a complete overlap (an
// error by default); the properties are those of the later-wins rule, so choose it.
CombineOptions LaterWins() {
  CombineOptions options;
  options.on_overlap = OnOverlap::kLater;
  return options;
}

std::vector<PartSpec> RandomSeries(std::mt19937_64& rng) {
  const char* calendars[] = {"standard", "noleap", "360_day", "proleptic_gregorian"};
  std::string calendar = calendars[rng() % 4];
  const int parts = 2 + static_cast<int>(rng() % 7);
  const uint64_t time_chunk = rng() % 3 == 0 ? 2 : 1;
  const bool half_days = rng() % 2 == 0;  // values like 15.5 as monthly CMIP data has
  int64_t next_day = static_cast<int64_t>(rng() % 100);
  std::vector<PartSpec> out;
  for (int k = 0; k < parts; ++k) {
    PartSpec s;
    s.url = "p" + std::to_string(k) + ".nc";
    s.calendar = calendar;
    s.time_chunk = time_chunk;
    uint64_t length = 1 + rng() % 5;
    if (time_chunk == 2) length = k + 1 < parts ? 2 * (1 + rng() % 2) : 1 + rng() % 4;
    int64_t first_day = next_day;
    if (k > 0 && time_chunk == 1 && rng() % 3 == 0) first_day -= 1;  // overlap by one step
    // Each part counts from its own reference date, in days or hours: conversions to the
    // first part's units are exact.
    const char* epochs[] = {"2000-01-01", "2000-01-08", "2001-01-01"};
    int choice = static_cast<int>(rng() % 3);
    int64_t year_2000 = calendar == "360_day" ? 360 : calendar == "noleap" ? 365 : 366;
    int64_t epoch_day = choice == 0 ? 0 : choice == 1 ? 7 : year_2000;
    bool hours = rng() % 2 == 0;
    s.units = std::string(hours ? "hours" : "days") + " since " + epochs[choice];
    for (uint64_t j = 0; j < length; ++j) {
      double day = static_cast<double>(first_day + static_cast<int64_t>(j)) + (half_days ? 0.5 : 0);
      double value = day - static_cast<double>(epoch_day);
      s.times.push_back(hours ? value * 24 : value);
    }
    bool integral = hours || !half_days;
    s.time_dtype = integral && rng() % 2 ? (rng() % 2 ? "<i4" : "<i8") : "<f8";
    next_day = first_day + static_cast<int64_t>(length);
    out.push_back(std::move(s));
  }
  return out;
}

// Combines parts [begin, end) either directly or, at random, as a combination of combined
// contiguous groups.
Result<ReferenceSet> NestedCombine(const std::vector<PartSpec>& specs, size_t begin, size_t end,
                                   int depth, std::mt19937_64& rng, std::string& shape) {
  if (depth == 0 || end - begin == 1 || rng() % 4 == 0) {
    std::vector<ReferenceSet> parts;
    for (size_t i = begin; i < end; ++i) parts.push_back(MakePart(specs[i]));
    shape += "(" + std::to_string(end - begin) + ")";
    return CombineReferenceSets(std::move(parts), LaterWins());
  }
  std::vector<ReferenceSet> groups;
  shape += "[";
  size_t at = begin;
  while (at < end) {
    size_t size = 1 + rng() % (end - at);
    KERCHUNK_ASSIGN_OR_RETURN(ReferenceSet g,
                              NestedCombine(specs, at, at + size, depth - 1, rng, shape));
    groups.push_back(std::move(g));
    at += size;
  }
  shape += "]";
  return CombineReferenceSets(std::move(groups), LaterWins());
}

TEST(CombinePropertyTest, NestedCombinationEqualsFlat) {
  std::mt19937_64 rng(2024);
  int compared = 0;
  for (int trial = 0; trial < 400; ++trial) {
    std::vector<PartSpec> specs = RandomSeries(rng);
    std::vector<ReferenceSet> parts;
    for (const auto& s : specs) parts.push_back(MakePart(s));
    auto flat = CombineReferenceSets(std::move(parts), LaterWins());
    ASSERT_TRUE(flat.ok()) << "trial " << trial << ": " << flat.status().ToString();
    std::string shape;
    auto nested = NestedCombine(specs, 0, specs.size(), 3, rng, shape);
    ASSERT_TRUE(nested.ok()) << "trial " << trial << " " << shape << ": "
                             << nested.status().ToString();
    EXPECT_TRUE(testing::SameReferences(*flat, *nested)) << "trial " << trial << " " << shape;
    ++compared;
  }
  EXPECT_EQ(compared, 400);
}

// Combining one part normalises it (coordinate inline); combining that again changes nothing.
TEST(CombinePropertyTest, CombiningACombinationAloneIsIdempotent) {
  std::mt19937_64 rng(7);
  for (int trial = 0; trial < 50; ++trial) {
    std::vector<PartSpec> specs = RandomSeries(rng);
    std::vector<ReferenceSet> parts;
    for (const auto& s : specs) parts.push_back(MakePart(s));
    auto once = CombineReferenceSets(std::move(parts), LaterWins());
    ASSERT_TRUE(once.ok());
    std::vector<ReferenceSet> again_parts;
    again_parts.push_back(*once);
    auto twice = CombineReferenceSets(std::move(again_parts), LaterWins());
    ASSERT_TRUE(twice.ok());
    EXPECT_TRUE(testing::SameReferences(*once, *twice)) << "trial " << trial;
  }
}

}  // namespace
}  // namespace kerchunk
