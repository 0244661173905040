// CombineReferenceSets along a dimension the parts do not have (CombineOptions::coordinates):
// value order and storage, duplicates as complete overlaps, what gains the dimension, several
// dimensions, and the errors.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "combine/synthetic_parts.h"
#include "kerchunk/combine/combine.h"
#include "kerchunk/refs/zarr_metadata.h"

namespace kerchunk {
namespace {

using ::testing::ElementsAre;
using testing::EntryText;
using ::testing::HasSubstr;
using testing::MakePart;
using testing::PartSpec;

// A synthetic part (time + tas + lat) whose global attributes are `attrs` (a JSON object).
ReferenceSet Member(const std::string& url, const std::string& attrs,
                    std::vector<double> times = {0, 1}) {
  PartSpec spec;
  spec.url = url;
  spec.times = std::move(times);
  ReferenceSet part = MakePart(spec);
  part.SetText(".zattrs", attrs);
  // lat inline (the same in every member), so that comparing it reads no file.
  ArrayRefs* lat = part.FindArray("lat");
  ArrayRefs inline_lat("lat", lat->grid());
  inline_lat.AddInline(0, std::string(24, '\0'), /*base64=*/true);
  EXPECT_TRUE(inline_lat.Finalize().ok());
  *lat = std::move(inline_lat);
  return part;
}

CombineOptions Along(const std::string& dim, const std::string& source) {
  CombineOptions options;
  options.concat_dim = dim;
  options.coordinates.emplace(dim, ParseCoordinateSource(source).value());
  return options;
}

ZarrArrayMeta Meta(const ReferenceSet& r, const std::string& path) {
  return ZarrArrayMeta::Parse(EntryText(r, path + "/.zarray")).value();
}

// The file of tas chunk `key`.
std::string TasFile(const ReferenceSet& r, const std::string& key) {
  const ArrayRefs* a = r.FindArray("tas");
  auto i = a->Find(a->grid().ParseKey(key).value());
  if (!i) return "missing";
  return r.urls[a->Get(*i).url];
}

TEST(NewDimensionTest, NumbersAreSorted) {
  std::vector<ReferenceSet> parts;
  parts.push_back(Member("c.nc", R"({"realization":3})"));
  parts.push_back(Member("a.nc", R"({"realization":1})"));
  parts.push_back(Member("b.nc", R"({"realization":2})"));
  auto r = CombineReferenceSets(std::move(parts), Along("member", "attr:realization"));
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_THAT(testing::CoordinateValues(*r, "member"), ElementsAre(1, 2, 3));
  EXPECT_EQ(Meta(*r, "member").dtype, "<i8");
  EXPECT_EQ(Meta(*r, "tas").shape, (std::vector<uint64_t>{3, 2, 3}));
  EXPECT_EQ(Meta(*r, "tas").chunks, (std::vector<uint64_t>{1, 1, 3}));
  EXPECT_EQ(TasFile(*r, "0.1.0"), "a.nc");
  EXPECT_EQ(TasFile(*r, "2.0.0"), "c.nc");
  // time and lat are dimension coordinates: kept once.
  EXPECT_EQ(Meta(*r, "time").shape, (std::vector<uint64_t>{2}));
  EXPECT_EQ(Meta(*r, "lat").shape, (std::vector<uint64_t>{3}));
}

TEST(NewDimensionTest, StringsKeepInputOrderAsFixedWidthUnicode) {
  std::vector<ReferenceSet> parts;
  parts.push_back(Member("x.nc", R"({"variant_label":"r10"})"));
  parts.push_back(Member("y.nc", R"({"variant_label":"r2"})"));
  auto r = CombineReferenceSets(std::move(parts), Along("member", "attr:variant_label"));
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(Meta(*r, "member").dtype, "<U3");
  const ArrayRefs* member = r->FindArray("member");
  ASSERT_EQ(member->size(), 1u);
  ChunkRef c = member->Get(0);
  ASSERT_EQ(c.kind, RefKind::kInline);
  std::string expected;
  for (char ch : std::string("r10r2\0", 6)) expected += std::string{ch, 0, 0, 0};
  EXPECT_EQ(std::string(c.data), expected);
  EXPECT_EQ(TasFile(*r, "1.0.0"), "y.nc");
}

TEST(NewDimensionTest, SameValueTwiceIsACompleteOverlap) {
  auto parts = [] {
    std::vector<ReferenceSet> p;
    p.push_back(Member("a.nc", R"({"variant_label":"r1"})"));
    p.push_back(Member("b.nc", R"({"variant_label":"r1"})"));
    p.push_back(Member("c.nc", R"({"variant_label":"r2"})"));
    return p;
  };
  auto refused = CombineReferenceSets(parts(), Along("member", "attr:variant_label"));
  ASSERT_FALSE(refused.ok());
  EXPECT_THAT(refused.status().message(),
              HasSubstr("part 0 (a.nc) and part 1 (b.nc) have the same \"member\" value \"r1\""));
  CombineOptions later = Along("member", "attr:variant_label");
  later.on_overlap = OnOverlap::kLater;
  std::vector<std::string> warnings;
  auto r = CombineReferenceSets(parts(), later, &warnings);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(TasFile(*r, "0.0.0"), "b.nc");
  EXPECT_EQ(Meta(*r, "tas").shape[0], 2u);
  ASSERT_EQ(warnings.size(), 1u);
  EXPECT_THAT(warnings[0], HasSubstr("the later input (part 1 (b.nc)) is used"));
  CombineOptions earlier = Along("member", "attr:variant_label");
  earlier.on_overlap = OnOverlap::kEarlier;
  auto e = CombineReferenceSets(parts(), earlier);
  ASSERT_TRUE(e.ok());
  EXPECT_EQ(TasFile(*e, "0.0.0"), "a.nc");
}

// Members whose time differs are not an ensemble of the same steps: their own times would be
// lost, so the error says to concatenate along time too.
TEST(NewDimensionTest, DimensionCoordinatesMustAgree) {
  std::vector<ReferenceSet> parts;
  parts.push_back(Member("a.nc", R"({"variant_label":"r1"})", {0, 1}));
  parts.push_back(Member("b.nc", R"({"variant_label":"r2"})", {2, 3}));
  auto r = CombineReferenceSets(std::move(parts), Along("member", "attr:variant_label"));
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(r.status().message(), HasSubstr("variable \"time\" differs"));
  EXPECT_THAT(r.status().message(), HasSubstr("need a --concat-dim for it"));
}

// A variable equal in every member gains the dimension unless --check-identical finds it equal.
TEST(NewDimensionTest, CheckIdenticalKeepsEqualVariablesOnce) {
  auto parts = [] {
    std::vector<ReferenceSet> p;
    for (const char* label : {"r1", "r2"}) {
      ReferenceSet part =
          Member(std::string(label) + ".nc", fmt::format(R"({{"variant_label":"{}"}})", label));
      part.SetText("crs/.zarray", R"({"chunks":[],"compressor":null,"dtype":"<i4","fill_value":0,)"
                                  R"("filters":null,"order":"C","shape":[],"zarr_format":2})");
      part.SetText("crs/.zattrs", R"({"_ARRAY_DIMENSIONS":[]})");
      // tas inline and different per member, so that comparing it reads no file.
      ArrayRefs* tas = part.FindArray("tas");
      ArrayRefs inline_tas("tas", tas->grid());
      for (uint64_t k = 0; k < 2; ++k) inline_tas.AddInline(k, std::string(12, label[1]), true);
      EXPECT_TRUE(inline_tas.Finalize().ok());
      *tas = std::move(inline_tas);
      p.push_back(std::move(part));
    }
    return p;
  };
  auto expanded = CombineReferenceSets(parts(), Along("member", "attr:variant_label"));
  ASSERT_TRUE(expanded.ok()) << expanded.status().ToString();
  EXPECT_EQ(Meta(*expanded, "crs").shape, (std::vector<uint64_t>{2}));
  CombineOptions check = Along("member", "attr:variant_label");
  check.check_identical = true;
  auto kept = CombineReferenceSets(parts(), check);
  ASSERT_TRUE(kept.ok()) << kept.status().ToString();
  EXPECT_EQ(Meta(*kept, "crs").shape, (std::vector<uint64_t>{}));
  EXPECT_EQ(Meta(*kept, "tas").shape, (std::vector<uint64_t>{2, 2, 3}));

  // One member: nothing to compare, so crs gains the dimension.
  std::vector<ReferenceSet> one = parts();
  one.pop_back();
  auto single = CombineReferenceSets(std::move(one), check);
  ASSERT_TRUE(single.ok()) << single.status().ToString();
  EXPECT_EQ(Meta(*single, "crs").shape, (std::vector<uint64_t>{1}));
}

TEST(NewDimensionTest, MemberByTime) {
  std::vector<ReferenceSet> parts;
  parts.push_back(Member("r1_a.nc", R"({"variant_label":"r1"})", {0, 1}));
  parts.push_back(Member("r1_b.nc", R"({"variant_label":"r1"})", {2, 3}));
  parts.push_back(Member("r2_a.nc", R"({"variant_label":"r2"})", {0, 1}));
  parts.push_back(Member("r2_b.nc", R"({"variant_label":"r2"})", {2, 3}));
  CombineOptions options = Along("member", "attr:variant_label");
  options.outer_dims = {"member"};
  options.concat_dim = "time";
  auto r = CombineReferenceSets(std::move(parts), options);
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  EXPECT_EQ(Meta(*r, "tas").shape, (std::vector<uint64_t>{2, 4, 3}));
  EXPECT_THAT(testing::CoordinateValues(*r, "time"), ElementsAre(0, 1, 2, 3));
  EXPECT_EQ(TasFile(*r, "1.3.0"), "r2_b.nc");
  EXPECT_EQ(TasFile(*r, "0.2.0"), "r1_b.nc");
}

TEST(NewDimensionTest, SourceErrorsNameThePart) {
  auto parts = [] {
    std::vector<ReferenceSet> p;
    p.push_back(Member("a.nc", R"({"variant_label":"r1"})"));
    p.push_back(Member("b.nc", R"({"variant_label":2})"));
    return p;
  };
  auto missing = CombineReferenceSets(parts(), Along("member", "attr:nope"));
  ASSERT_FALSE(missing.ok());
  EXPECT_THAT(missing.status().message(), HasSubstr("part 0 (a.nc): no global attribute \"nope\""));
  auto mixed = CombineReferenceSets(parts(), Along("member", "attr:variant_label"));
  ASSERT_FALSE(mixed.ok());
  EXPECT_THAT(mixed.status().message(), HasSubstr("part 1 (b.nc): new dimension \"member\""));
  auto nomatch = CombineReferenceSets(parts(), Along("member", "path:zzz"));
  ASSERT_FALSE(nomatch.ok());
  EXPECT_THAT(nomatch.status().message(), HasSubstr("path:zzz does not match \"a.nc\""));
  auto vattr = CombineReferenceSets(parts(), Along("member", "vattr:tas:member"));
  ASSERT_FALSE(vattr.ok());
  EXPECT_THAT(vattr.status().message(), HasSubstr("variable \"tas\" has no attribute \"member\""));
}

TEST(NewDimensionTest, ParseCoordinateSource) {
  EXPECT_EQ(ParseCoordinateSource("vattr:tas:member").value().variable, "tas");
  EXPECT_EQ(ParseCoordinateSource("vattr:tas:member").value().name, "member");
  EXPECT_EQ(ParseCoordinateSource("index").value().kind, CoordinateSource::Kind::kIndex);
  EXPECT_EQ(ParseCoordinateSource("data:time_centered").value().kind,
            CoordinateSource::Kind::kData);
  for (const char* bad : {"", "attr:", "vattr:tas", "vattr::x", "cf:time", "path:("}) {
    EXPECT_FALSE(ParseCoordinateSource(bad).ok()) << bad;
  }
}

}  // namespace
}  // namespace kerchunk
