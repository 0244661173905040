// Parts that cannot be combined: each error has its code and names the part and the variable.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "combine/synthetic_parts.h"
#include "kerchunk/combine/combine.h"

namespace kerchunk {
namespace {

using ::testing::HasSubstr;
using testing::MakePart;
using testing::PartSpec;

PartSpec Spec(std::string url, std::vector<double> times) {
  PartSpec s;
  s.url = std::move(url);
  s.times = std::move(times);
  return s;
}

Status CombineStatus(std::vector<ReferenceSet> parts, CombineOptions options = {}) {
  return CombineReferenceSets(std::move(parts), options).status();
}

Status CombineSpecs(const std::vector<PartSpec>& specs) {
  std::vector<ReferenceSet> parts;
  for (const auto& s : specs) parts.push_back(MakePart(s));
  return CombineStatus(std::move(parts));
}

void ExpectError(const Status& s, StatusCode code, const std::vector<std::string>& fragments) {
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.code(), code) << s.ToString();
  for (const auto& f : fragments) EXPECT_THAT(s.message(), HasSubstr(f));
}

TEST(CombineErrorsTest, DtypeDiffers) {
  PartSpec b = Spec("b.nc", {1});
  b.tas_dtype = "<f8";
  ExpectError(CombineSpecs({Spec("a.nc", {0}), b}), StatusCode::kInvalidArgument,
              {"part 1 (b.nc)", "variable \"tas\"", "expected dtype <f4, got <f8"});
}

// nc4_hidefix_jan_feb: jan.nc4 is chunked [31, ...] and feb.nc4 [28, ...] along time. One zarr
// array has one chunk shape, so no reference set can express both without rechunking; Python
// kerchunk fails on the same set with "chunk size mismatch".
TEST(CombineErrorsTest, ChunkShapesDiffer) {
  PartSpec a = Spec("jan.nc4", {0, 1}), b = Spec("feb.nc4", {2});
  a.time_chunk = 2;
  b.time_chunk = 1;
  ExpectError(
      CombineSpecs({a, b}), StatusCode::kInvalidArgument,
      {"part 1 (feb.nc4)", "variable \"tas\"", "expected chunks [2, 3], got [1, 3]", "rechunking"});
}

TEST(CombineErrorsTest, NonConcatShapeDiffers) {
  PartSpec b = Spec("b.nc", {1});
  b.nlat = 4;
  // lat differs too, but it is taken from the first part; tas is checked.
  ExpectError(CombineSpecs({Spec("a.nc", {0}), b}), StatusCode::kInvalidArgument,
              {"part 1 (b.nc)", "variable \"tas\""});
}

TEST(CombineErrorsTest, MissingAndExtraVariables) {
  ReferenceSet a = MakePart(Spec("a.nc", {0})), b = MakePart(Spec("b.nc", {1}));
  b.RemoveEntry("lat/.zarray");
  ExpectError(CombineStatus({MakePart(Spec("a.nc", {0})), std::move(b)}),
              StatusCode::kInvalidArgument, {"part 1 (b.nc)", "variable \"lat\"", "missing"});
  ReferenceSet c = MakePart(Spec("c.nc", {1}));
  c.SetText("extra/.zarray", c.FindEntry("lat/.zarray")->value.data);
  ExpectError(CombineStatus({std::move(a), std::move(c)}), StatusCode::kInvalidArgument,
              {"part 1 (c.nc)", "variable \"extra\" is not in the first part"});
}

TEST(CombineErrorsTest, CodecsDiffer) {
  ReferenceSet b = MakePart(Spec("b.nc", {1}));
  std::string zarray = b.FindEntry("tas/.zarray")->value.data;
  zarray.replace(zarray.find("\"compressor\":null"), 17, R"("compressor":{"id":"zlib","level":1})");
  b.SetText("tas/.zarray", zarray);
  ExpectError(CombineStatus({MakePart(Spec("a.nc", {0})), std::move(b)}),
              StatusCode::kInvalidArgument, {"part 1 (b.nc)", "variable \"tas\"", "compressor"});
}

TEST(CombineErrorsTest, PartNotOnChunkBoundary) {
  // a has 3 steps with chunks of 2 along time: its last chunk would be half empty in the middle.
  PartSpec a = Spec("a.nc", {0, 1, 2}), b = Spec("b.nc", {3, 4});
  a.time_chunk = b.time_chunk = 2;
  ExpectError(CombineSpecs({a, b}), StatusCode::kInvalidArgument,
              {"part 0 (a.nc)", "variable \"tas\"", "positions [0, 3) of 5", "every 2 steps",
               "rechunking"});
}

TEST(CombineErrorsTest, InterleavedValues) {
  ExpectError(
      CombineSpecs({Spec("a.nc", {0, 2}), Spec("b.nc", {1, 3})}), StatusCode::kInvalidArgument,
      {"part 0 (a.nc)", "interleave with those of part 1 (b.nc)", "1 lies between 0 and 2"});
}

TEST(CombineErrorsTest, ValuesMustIncrease) {
  ExpectError(CombineSpecs({Spec("a.nc", {0, 1}), Spec("b.nc", {3, 2})}),
              StatusCode::kInvalidArgument,
              {"part 1 (b.nc)", "must increase strictly, got 3 then 2 at index 1"});
  ExpectError(CombineSpecs({Spec("a.nc", {0, NAN})}), StatusCode::kInvalidArgument,
              {"part 0 (a.nc)", "is NaN"});
}

TEST(CombineErrorsTest, CalendarsOrUnitsThatCannotBeConverted) {
  PartSpec a = Spec("a.nc", {0}), b = Spec("b.nc", {1});
  b.calendar = "noleap";
  ExpectError(CombineSpecs({a, b}), StatusCode::kInvalidArgument,
              {"part 1 (b.nc)", "coordinate \"time\"", "calendars differ"});
  b.calendar = "standard";
  b.units = "months since 2000-01-01";
  ExpectError(CombineSpecs({a, b}), StatusCode::kUnsupported, {"part 1 (b.nc)", "\"months\""});
}

TEST(CombineErrorsTest, CoordinateLengthDisagreesWithVariable) {
  ReferenceSet b = MakePart(Spec("b.nc", {1, 2}));
  std::string zarray = b.FindEntry("tas/.zarray")->value.data;
  zarray.replace(zarray.find("\"shape\":[2,3]"), 13, "\"shape\":[3,3]");
  b.SetText("tas/.zarray", zarray);
  ExpectError(CombineStatus({MakePart(Spec("a.nc", {0})), std::move(b)}),
              StatusCode::kInvalidArgument,
              {"part 1 (b.nc)", "variable \"tas\" has 3 steps along \"time\"", "coordinate"});
}

TEST(CombineErrorsTest, UnreadableCoordinate) {
  PartSpec a = Spec("a.nc", {0});
  a.coordinate_file = "/nonexistent/dir/time.bin";
  ReferenceSet part = MakePart(a);
  ExpectError(CombineStatus({std::move(part)}), StatusCode::kNotFound,
              {"part 0 (a.nc)", "chunk \"time/0\"", "/nonexistent/dir/time.bin"});
}

TEST(CombineErrorsTest, NothingToConcatenate) {
  CombineOptions options;
  options.concat_dim = "depth";
  ExpectError(CombineStatus({MakePart(Spec("a.nc", {0}))}, options), StatusCode::kInvalidArgument,
              {"no variable of part 0 (a.nc)", "\"depth\""});
  ExpectError(CombineStatus({}), StatusCode::kInvalidArgument, {"no reference sets"});
}

TEST(CombineErrorsTest, StrayKeyUnderConcatenatedVariable) {
  ReferenceSet b = MakePart(Spec("b.nc", {1}));
  b.SetText("tas/99.0", "junk");
  ExpectError(CombineStatus({MakePart(Spec("a.nc", {0})), std::move(b)}), StatusCode::kUnsupported,
              {"part 1 (b.nc)", "key \"tas/99.0\""});
}

}  // namespace
}  // namespace kerchunk
