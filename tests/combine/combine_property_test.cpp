// Associativity, the property sharded scans rely on: combining groups of parts and then the
// groups' results gives exactly what combining all parts at once gives, for random series
// (lengths, overlaps, chunking, units, dtypes) and random contiguous groupings, nested up to
// three levels. And determinism: the thread count changes nothing, URL ids included.
#include <gtest/gtest.h>

#include <optional>
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

// Gives some of tas's chunks another URL of the part or inline bytes, so that parts hold several
// URLs (as combined parts do) and inline values, whose ids and offsets must survive being built
// in pieces and joined.
void MixReferences(ReferenceSet& part, std::mt19937_64& rng) {
  const uint32_t other = part.urls.Intern("other-" + std::to_string(rng() % 3) + ".nc");
  for (ArrayRefs& array : part.arrays) {
    if (array.path() != "tas") continue;
    ArrayRefs mixed(array.path(), array.grid());
    for (size_t i = 0; i < array.size(); ++i) {
      ChunkRef ref = array.Get(i);
      const std::string bytes = "inline " + std::to_string(i);
      switch (rng() % 4) {
        case 0:
          mixed.AddInline(array.chunk_index(i), bytes, rng() % 2 == 0);
          break;
        case 1:
          ref.url = other;
          mixed.Add(array.chunk_index(i), ref);
          break;
        default:
          mixed.Add(array.chunk_index(i), ref);
      }
    }
    array = std::move(mixed);
  }
}

// Equal down to the URL table's order and each array's columns, not only in meaning.
::testing::AssertionResult Identical(const ReferenceSet& a, const ReferenceSet& b) {
  if (a.urls.urls() != b.urls.urls()) return ::testing::AssertionFailure() << "URL tables differ";
  if (a.arrays.size() != b.arrays.size()) return ::testing::AssertionFailure() << "array counts";
  for (size_t k = 0; k < a.arrays.size(); ++k) {
    const ArrayRefs &x = a.arrays[k], &y = b.arrays[k];
    if (x.path() != y.path() || x.chunks() != y.chunks() || x.urls() != y.urls() ||
        x.offsets() != y.offsets() || x.lengths() != y.lengths() ||
        x.inline_data() != y.inline_data()) {
      return ::testing::AssertionFailure() << "array \"" << x.path() << "\" differs";
    }
  }
  return testing::SameReferences(a, b);
}

TEST(CombinePropertyTest, ThreadCountChangesNothing) {
  std::mt19937_64 rng(99);
  for (int trial = 0; trial < 200; ++trial) {
    std::vector<PartSpec> specs = RandomSeries(rng);
    std::vector<ReferenceSet> parts;
    for (const auto& s : specs) {
      parts.push_back(MakePart(s));
      if (rng() % 2 == 0) MixReferences(parts.back(), rng);
    }
    std::optional<ReferenceSet> one_thread;
    for (unsigned threads : {1u, 2u, 3u, 8u}) {
      CombineOptions options = LaterWins();
      options.threads = threads;
      auto combined = CombineReferenceSets(parts, options);
      ASSERT_TRUE(combined.ok()) << "trial " << trial << ": " << combined.status().ToString();
      if (!one_thread) {
        one_thread = std::move(*combined);
        continue;
      }
      EXPECT_TRUE(Identical(*one_thread, *combined)) << "trial " << trial << ", -j " << threads;
    }
  }
}

}  // namespace
}  // namespace kerchunk
