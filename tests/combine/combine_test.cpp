// CombineReferenceSets on synthetic parts: ordering, overlaps, unit conversion, variables taken
// from the first part, and the concatenated chunk keys.
#include "kerchunk/combine/combine.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <map>
#include <random>
#include <set>

#include "combine/synthetic_parts.h"
#include "kerchunk/refs/zarr_metadata.h"
#include "support/test_env.h"

namespace kerchunk {
namespace {

using testing::CoordinateValues;
using ::testing::ElementsAre;
using testing::EntryText;
using ::testing::HasSubstr;
using testing::MakePart;
using testing::PartSpec;

PartSpec Spec(std::string url, std::vector<double> times) {
  PartSpec s;
  s.url = std::move(url);
  s.times = std::move(times);
  return s;
}

Result<ReferenceSet> Combine(std::vector<PartSpec> specs, CombineOptions options = {},
                             std::vector<std::string>* warnings = nullptr) {
  std::vector<ReferenceSet> parts;
  for (const auto& s : specs) parts.push_back(MakePart(s));
  return CombineReferenceSets(std::move(parts), options, warnings);
}

// (url, offset) of tas chunk (t, 0).
std::pair<std::string, uint64_t> TasChunk(const ReferenceSet& r, uint64_t t) {
  const ArrayRefs* a = r.FindArray("tas");
  auto i = a->Find(a->grid().ParseKey(fmt::format("{}.0", t)).value());
  if (!i) return {"missing", 0};
  ChunkRef c = a->Get(*i);
  return {r.urls[c.url], c.offset};
}

TEST(CombineTest, OrdersPartsByCoordinateValues) {
  auto r = Combine({Spec("c.nc", {4, 5}), Spec("a.nc", {0, 1}), Spec("b.nc", {2, 3})});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_THAT(CoordinateValues(*r), ElementsAre(0, 1, 2, 3, 4, 5));
  EXPECT_EQ(TasChunk(*r, 0), (std::pair<std::string, uint64_t>{"a.nc", 1000}));
  EXPECT_EQ(TasChunk(*r, 3), (std::pair<std::string, uint64_t>{"b.nc", 1016}));
  EXPECT_EQ(TasChunk(*r, 5), (std::pair<std::string, uint64_t>{"c.nc", 1016}));
  // Shapes grow along time only; everything else comes from the first input (c.nc).
  auto tas = *ZarrArrayMeta::Parse(EntryText(*r, "tas/.zarray"));
  EXPECT_THAT(tas.shape, ElementsAre(6, 3));
  EXPECT_THAT(tas.chunks, ElementsAre(1, 3));
  EXPECT_EQ(EntryText(*r, ".zattrs"), R"({"source":"c.nc"})");
  EXPECT_EQ(r->FindArray("lat")->Get(0).url, *r->urls.Find("c.nc"));
  EXPECT_EQ(r->FindArray("tas")->size(), 6u);
}

TEST(CombineTest, CoordinateIsOneInlineUncompressedChunk) {
  PartSpec a = Spec("a.nc", {0, 1, 2});
  testing::TempDir dir;
  a.coordinate_file = dir / "a_time.bin";  // read from a file, zlib-compressed, 2 chunks
  a.coordinate_chunk = 2;
  auto r = Combine({a, Spec("b.nc", {3, 4})});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  auto meta = *ZarrArrayMeta::Parse(EntryText(*r, "time/.zarray"));
  EXPECT_THAT(meta.shape, ElementsAre(5));
  EXPECT_THAT(meta.chunks, ElementsAre(5));
  EXPECT_TRUE(meta.compressor.is_null());
  EXPECT_TRUE(meta.filters.is_null());
  EXPECT_EQ(meta.dtype, "<f8");
  EXPECT_THAT(CoordinateValues(*r), ElementsAre(0, 1, 2, 3, 4));
  EXPECT_EQ(r->FindArray("time")->size(), 1u);
  EXPECT_TRUE(r->FindArray("time")->Get(0).base64);
  // Attributes are the first part's.
  EXPECT_THAT(EntryText(*r, "time/.zattrs"), HasSubstr("days since 2000-01-01"));
}

TEST(CombineTest, BigEndianCoordinateKeepsItsDtype) {
  PartSpec a = Spec("a.nc", {0.5, 1.5}), b = Spec("b.nc", {2.5});
  a.time_dtype = b.time_dtype = ">f8";  // NetCDF-3 stores big-endian
  auto r = Combine({a, b});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(ZarrArrayMeta::Parse(EntryText(*r, "time/.zarray"))->dtype, ">f8");
  EXPECT_THAT(CoordinateValues(*r), ElementsAre(0.5, 1.5, 2.5));
}

// MultiZarrToZarr places a part at the position of its first value in the sorted set of all
// values; overlapping positions take the part that comes later in the input.
TEST(CombineTest, OverlapTakesTheLaterInput) {
  std::vector<std::string> warnings;
  auto r = Combine({Spec("a.nc", {0, 1, 2, 3}), Spec("b.nc", {3, 4, 5})}, {}, &warnings);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_THAT(CoordinateValues(*r), ElementsAre(0, 1, 2, 3, 4, 5));
  EXPECT_EQ(TasChunk(*r, 2).first, "a.nc");
  EXPECT_EQ(TasChunk(*r, 3), (std::pair<std::string, uint64_t>{"b.nc", 1000}));
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_THAT(warnings[0], HasSubstr("part 0 (a.nc) and part 1 (b.nc) overlap at 1 position of"));

  auto reversed = Combine({Spec("b.nc", {3, 4, 5}), Spec("a.nc", {0, 1, 2, 3})});
  ASSERT_TRUE(reversed.ok());
  EXPECT_EQ(TasChunk(*reversed, 3), (std::pair<std::string, uint64_t>{"a.nc", 1048}));
}

// Like padocc's 3DAgg set: four files per time value. Each file's positions are all in another
// file (a complete overlap): by default an error naming both, since a whole file would vanish.
TEST(CombineTest, CompleteOverlapIsAnErrorByDefault) {
  auto r =
      Combine({Spec("f0.nc", {0}), Spec("f1.nc", {0}), Spec("f2.nc", {1}), Spec("f3.nc", {1})});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(r.status().message(), HasSubstr("part 0 (f0.nc) adds nothing along \"time\""));
  EXPECT_THAT(r.status().message(), HasSubstr("also in part 1 (f1.nc)"));
  EXPECT_THAT(r.status().message(), HasSubstr("--on-overlap later or earlier"));
}

// --on-overlap later keeps MultiZarrToZarr's rule (the last of each group wins), earlier the
// first; both warn once per overlapping pair.
TEST(CombineTest, DuplicateValuesCollapseAsOnOverlapSays) {
  std::vector<PartSpec> specs = {Spec("f0.nc", {0}), Spec("f1.nc", {0}), Spec("f2.nc", {1}),
                                 Spec("f3.nc", {1})};
  CombineOptions later;
  later.on_overlap = OnOverlap::kLater;
  std::vector<std::string> warnings;
  auto r = Combine(specs, later, &warnings);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_THAT(CoordinateValues(*r), ElementsAre(0, 1));
  EXPECT_EQ(TasChunk(*r, 0).first, "f1.nc");
  EXPECT_EQ(TasChunk(*r, 1).first, "f3.nc");
  EXPECT_EQ(warnings.size(), 2u);

  CombineOptions earlier;
  earlier.on_overlap = OnOverlap::kEarlier;
  warnings.clear();
  auto e = Combine(specs, earlier, &warnings);
  ASSERT_TRUE(e.ok()) << e.status().ToString();
  EXPECT_EQ(TasChunk(*e, 0).first, "f0.nc");
  EXPECT_EQ(TasChunk(*e, 1).first, "f2.nc");
  ASSERT_EQ(warnings.size(), 2u);
  EXPECT_THAT(warnings[0], HasSubstr("the earlier input (part 0 (f0.nc)) is used there"));
}

// Parts overlapping each other by any amount (several at once, one inside another, given in
// any order) give the sorted union of their values, each chunk from a part holding its value.
TEST(CombineTest, ManyOverlappingPartsGiveTheSortedUnionOfTheirValues) {
  std::mt19937_64 rng(5);
  CombineOptions later;
  later.on_overlap = OnOverlap::kLater;
  for (int trial = 0; trial < 60; ++trial) {
    std::vector<PartSpec> specs;
    std::set<double> all;
    std::map<std::string, std::set<double>> held;
    int64_t start = 0, end = 0;
    const int parts = 2 + static_cast<int>(rng() % 12);
    for (int k = 0; k < parts; ++k) {
      start += static_cast<int64_t>(rng() % static_cast<uint64_t>(end - start + 1));
      const int64_t length = 1 + static_cast<int64_t>(rng() % 6);
      std::vector<double> times;
      for (int64_t t = start; t < start + length; ++t) times.push_back(static_cast<double>(t));
      end = std::max(end, start + length);
      const std::string url = "p" + std::to_string(k) + ".nc";
      all.insert(times.begin(), times.end());
      held[url].insert(times.begin(), times.end());
      specs.push_back(Spec(url, std::move(times)));
    }
    std::shuffle(specs.begin(), specs.end(), rng);
    auto r = Combine(specs, later);
    ASSERT_TRUE(r.ok()) << "trial " << trial << ": " << r.status().ToString();
    const std::vector<double> expected(all.begin(), all.end());
    ASSERT_EQ(CoordinateValues(*r), expected) << "trial " << trial;
    for (size_t t = 0; t < expected.size(); ++t) {
      const std::string url = TasChunk(*r, t).first;
      EXPECT_TRUE(held[url].count(expected[t])) << "trial " << trial << ": " << url;
    }
  }
}

// A partial overlap (a shared boundary step) follows the later input by default, the earlier
// with --on-overlap earlier, and is refused with --on-overlap error.
TEST(CombineTest, PartialOverlapFollowsOnOverlap) {
  std::vector<PartSpec> specs = {Spec("a.nc", {0, 1, 2, 3}), Spec("b.nc", {3, 4, 5})};
  CombineOptions earlier;
  earlier.on_overlap = OnOverlap::kEarlier;
  auto e = Combine(specs, earlier);
  ASSERT_TRUE(e.ok()) << e.status().ToString();
  EXPECT_EQ(TasChunk(*e, 3), (std::pair<std::string, uint64_t>{"a.nc", 1048}));
  EXPECT_EQ(TasChunk(*e, 4), (std::pair<std::string, uint64_t>{"b.nc", 1016}));

  CombineOptions error;
  error.on_overlap = OnOverlap::kError;
  auto refused = Combine(specs, error);
  ASSERT_FALSE(refused.ok());
  EXPECT_THAT(refused.status().message(),
              HasSubstr("part 0 (a.nc) and part 1 (b.nc) overlap at 1 position of \"time\""));
}

// Members of an ensemble scanned without their dimension overlap completely; the error says
// which attribute tells them apart and how to use it.
TEST(CombineTest, CompleteOverlapHintsAtTheMemberAttribute) {
  std::vector<ReferenceSet> parts;
  for (const char* member : {"r1i1p1f1", "r2i1p1f1"}) {
    ReferenceSet part = MakePart(Spec(std::string(member) + ".nc", {0, 1}));
    part.SetText(".zattrs", fmt::format(R"({{"variant_label":"{}"}})", member));
    parts.push_back(std::move(part));
  }
  auto r = CombineReferenceSets(std::move(parts), {});
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(r.status().message(),
              HasSubstr("they differ in the global attribute \"variant_label\" (\"r1i1p1f1\" and "
                        "\"r2i1p1f1\"): to keep both, concatenate along a new dimension with "
                        "--concat-dim member --coord member=attr:variant_label"));
}

TEST(CombineTest, GapsInValuesAreNotPositions) {
  auto r = Combine({Spec("a.nc", {0, 1}), Spec("b.nc", {10, 11})});
  ASSERT_TRUE(r.ok());
  EXPECT_THAT(CoordinateValues(*r), ElementsAre(0, 1, 10, 11));
  EXPECT_EQ(TasChunk(*r, 2).first, "b.nc");
}

TEST(CombineTest, ConvertsUnitsToTheFirstPart) {
  // EC-EARTH style: every file counts days from its own decade.
  PartSpec a = Spec("a.nc", {15.5, 45}), b = Spec("b.nc", {15.5, 45.5});
  a.units = "days since 1850-01-01 00:00:00";
  b.units = "days since 1860-01-01 00:00:00";
  std::vector<std::string> warnings;
  auto r = Combine({b, a}, {}, &warnings);  // b first: its units are the target
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_THAT(warnings[0], HasSubstr("part 1 (a.nc): \"time\" values converted from \"days "
                                     "since 1850-01-01 00:00:00\" to \"days since 1860-01-01"));
  // 1850-01-01 is 3652 days before 1860-01-01 (1852, 1856 leap years).
  EXPECT_THAT(CoordinateValues(*r), ElementsAre(15.5 - 3652, 45 - 3652, 15.5, 45.5));
  EXPECT_THAT(EntryText(*r, "time/.zattrs"), HasSubstr("days since 1860-01-01"));
}

TEST(CombineTest, ConvertsAcrossUnitsInEachCalendar) {
  struct Case {
    const char* calendar;
    const char* second_units;
    std::vector<double> second_values;
    std::vector<double> expected;  // all values in "days since 2000-01-01"
  };
  const Case cases[] = {
      {"noleap", "hours since 2000-02-28 12:00", {0, 12}, {0, 1, 58.5, 59}},
      {"all_leap", "days since 2000-03-01", {0, 1}, {0, 1, 60, 61}},
      {"360_day", "days since 2000-02-30", {0, 1.5}, {0, 1, 59, 60.5}},
      {"julian", "days since 2000-03-01", {0}, {0, 1, 60}},
      {"proleptic_gregorian", "minutes since 2000-01-03", {0, 720}, {0, 1, 2, 2.5}},
      {"standard", "seconds since 2000-01-02T00:00:00Z", {86400, 129600}, {0, 1, 2, 2.5}},
  };
  for (const Case& c : cases) {
    PartSpec a = Spec("a.nc", {0, 1}), b = Spec("b.nc", c.second_values);
    a.calendar = b.calendar = c.calendar;
    b.units = c.second_units;
    auto r = Combine({a, b});
    ASSERT_TRUE(r.ok()) << c.calendar << ": " << r.status().ToString();
    EXPECT_EQ(CoordinateValues(*r), c.expected) << c.calendar;
  }
}

TEST(CombineTest, IntegerCoordinateBecomesFloat64OnlyWhenNeeded) {
  PartSpec a = Spec("a.nc", {0, 1}), b = Spec("b.nc", {48, 60});
  a.time_dtype = b.time_dtype = "<i4";
  b.units = "hours since 2000-01-01";
  auto r = Combine({a, b});  // 48 h = 2 days, 60 h = 2.5 days
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(ZarrArrayMeta::Parse(EntryText(*r, "time/.zarray"))->dtype, "<f8");
  EXPECT_THAT(CoordinateValues(*r), ElementsAre(0, 1, 2, 2.5));

  b.times = {48, 72};
  auto exact = Combine({a, b});
  ASSERT_TRUE(exact.ok());
  EXPECT_EQ(ZarrArrayMeta::Parse(EntryText(*exact, "time/.zarray"))->dtype, "<i4");
  EXPECT_THAT(CoordinateValues(*exact), ElementsAre(0, 1, 2, 3));
}

TEST(CombineTest, SameUnitsAreNeverParsed) {
  PartSpec a = Spec("a.nc", {0, 30}), b = Spec("b.nc", {31, 58});
  a.units = b.units = "days since Jan 1, 2000";  // hidefix's units: not CF-parseable
  a.calendar = b.calendar = "";
  auto r = Combine({a, b});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_THAT(CoordinateValues(*r), ElementsAre(0, 30, 31, 58));
}

TEST(CombineTest, IdenticalDimsKeepTheFirstPartsVariable) {
  CombineOptions options;
  options.identical_dims = {"tas"};
  auto r = Combine({Spec("a.nc", {0, 1}), Spec("b.nc", {2, 3})}, options);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_THAT(ZarrArrayMeta::Parse(EntryText(*r, "tas/.zarray"))->shape, ElementsAre(2, 3));
  EXPECT_EQ(r->FindArray("tas")->size(), 2u);
  EXPECT_EQ(TasChunk(*r, 1).first, "a.nc");
  options.identical_dims = {"time"};
  auto bad = Combine({Spec("a.nc", {0}), Spec("b.nc", {1})}, options);
  EXPECT_EQ(bad.status().code(), StatusCode::kInvalidArgument);
}

TEST(CombineTest, CheckIdenticalComparesValues) {
  testing::TempDir dir;
  std::string file_a = dir / "a.nc", file_b = dir / "b.nc";
  // Both files hold the same lat bytes at different offsets; b's second copy differs.
  std::string bytes(2000, '\0');
  for (int i = 0; i < 24; ++i) bytes[i] = bytes[100 + i] = static_cast<char>(i);
  bytes[200] = 1;
  {
    std::ofstream(file_a, std::ios::binary) << bytes;
    std::ofstream(file_b, std::ios::binary) << bytes;
  }
  PartSpec a = Spec(file_a, {0}), b = Spec(file_b, {1});
  b.lat_offset = 100;
  CombineOptions options;
  options.check_identical = true;
  EXPECT_TRUE(Combine({a, b}, options).ok());
  b.lat_offset = 190;
  auto r = Combine({a, b}, options);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(r.status().message(), HasSubstr("part 1 (" + file_b + "): variable \"lat\" differs"));
  EXPECT_THAT(r.status().message(), HasSubstr("chunk \"lat/0\""));
  options.check_identical = false;
  EXPECT_TRUE(Combine({a, b}, options).ok());  // not compared unless asked
}

TEST(CombineTest, LastPartMayEndInsideAChunk) {
  PartSpec a = Spec("a.nc", {0, 1, 2, 3}), b = Spec("b.nc", {4, 5, 6});
  a.time_chunk = b.time_chunk = 2;
  auto r = Combine({a, b});
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_THAT(ZarrArrayMeta::Parse(EntryText(*r, "tas/.zarray"))->shape, ElementsAre(7, 3));
  EXPECT_EQ(TasChunk(*r, 2), (std::pair<std::string, uint64_t>{"b.nc", 1000}));
  EXPECT_EQ(TasChunk(*r, 3), (std::pair<std::string, uint64_t>{"b.nc", 1016}));
}

TEST(CombineTest, WithoutCoordinateVariableConcatenatesInInputOrder) {
  ReferenceSet a = MakePart(Spec("a.nc", {0, 1})), b = MakePart(Spec("b.nc", {5}));
  for (ReferenceSet* p : {&a, &b}) {
    p->RemoveEntry("time/.zarray");
    p->RemoveEntry("time/.zattrs");
    p->arrays.erase(p->arrays.begin());  // the time array
  }
  std::vector<std::string> warnings;
  auto r = CombineReferenceSets({std::move(a), std::move(b)}, {}, &warnings);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_THAT(ZarrArrayMeta::Parse(EntryText(*r, "tas/.zarray"))->shape, ElementsAre(3, 3));
  EXPECT_EQ(TasChunk(*r, 2).first, "b.nc");
  EXPECT_FALSE(r->FindEntry("time/.zarray"));
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_THAT(warnings[0], HasSubstr("no coordinate variable \"time\""));
}

TEST(CombineTest, OtherConcatDimension) {
  // Renaming "time" to "ocean_time" everywhere: the dimension is chosen by option.
  auto rename = [](ReferenceSet r) {
    ReferenceSet out;
    out.urls = r.urls;
    for (Entry e : r.entries) {
      if (e.key.starts_with("time/")) e.key = "ocean_time/" + e.key.substr(5);
      auto at = e.value.data.find("\"time\"");
      if (at != std::string::npos) e.value.data.replace(at, 6, "\"ocean_time\"");
      out.entries.push_back(e);
    }
    for (auto& a : r.arrays) {
      ArrayRefs copy(a.path() == "time" ? "ocean_time" : a.path(), a.grid());
      for (size_t i = 0; i < a.size(); ++i) copy.Add(a.chunk_index(i), a.Get(i));
      out.arrays.push_back(std::move(copy));
    }
    return out;
  };
  CombineOptions options;
  options.concat_dim = "ocean_time";
  auto r = CombineReferenceSets(
      {rename(MakePart(Spec("b.nc", {1}))), rename(MakePart(Spec("a.nc", {0})))}, options);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_THAT(CoordinateValues(*r, "ocean_time"), ElementsAre(0, 1));
  EXPECT_EQ(TasChunk(*r, 0).first, "a.nc");
}

}  // namespace
}  // namespace kerchunk
