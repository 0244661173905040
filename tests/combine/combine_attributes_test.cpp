// Value attributes (scale_factor, add_offset, _FillValue, ...) of concatenated variables must
// agree between parts: an error naming the part, variable, attribute and both values, or with
// OnAttributeConflict::kFirst the first part's values and a warning per part.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "combine/synthetic_parts.h"
#include "kerchunk/combine/combine.h"
#include "kerchunk/json/json_value.h"
#include "kerchunk/refs/zarr_metadata.h"

namespace kerchunk {
namespace {

using testing::EntryText;
using ::testing::HasSubstr;
using testing::MakePart;
using testing::PartSpec;

PartSpec Spec(std::string url, double time, std::string attributes) {
  PartSpec s;
  s.url = std::move(url);
  s.times = {time};
  s.tas_attributes = std::move(attributes);
  return s;
}

Result<ReferenceSet> Combine(const std::vector<PartSpec>& specs, OnAttributeConflict on_conflict,
                             std::vector<std::string>* warnings = nullptr) {
  std::vector<ReferenceSet> parts;
  for (const auto& s : specs) parts.push_back(MakePart(s));
  CombineOptions options;
  options.on_attribute_conflict = on_conflict;
  return CombineReferenceSets(std::move(parts), options, warnings);
}

std::string ErrorOf(const std::vector<PartSpec>& specs) {
  auto r = Combine(specs, OnAttributeConflict::kError);
  if (r.ok()) return "(combined)";
  EXPECT_EQ(r.status().code(), StatusCode::kInvalidArgument);
  return std::string(r.status().message());
}

json::Value TasAttrs(const ReferenceSet& r) {
  return *json::Value::Parse(EntryText(r, "tas/.zattrs"));
}

TEST(CombineAttributesTest, ScaleFactorThatDiffersIsAnErrorNamingBothValues) {
  EXPECT_EQ(ErrorOf({Spec("a.nc", 0, R"(,"scale_factor":0.01)"),
                     Spec("b.nc", 1, R"(,"scale_factor":0.01)"),
                     Spec("c.nc", 2, R"(,"scale_factor":0.02)")}),
            "part 2 (c.nc): variable \"tas\": attribute \"scale_factor\" is 0.02 here but 0.01 in "
            "part 0 (a.nc); the index would decode this file's values with the first file's "
            "attributes (--on-attribute-conflict first keeps them anyway)");
}

TEST(CombineAttributesTest, EveryValueAttributeIsCompared) {
  for (const char* name : {"scale_factor", "add_offset", "_FillValue", "missing_value", "valid_min",
                           "valid_max", "_Unsigned", "calendar"}) {
    EXPECT_THAT(ErrorOf({Spec("a.nc", 0, fmt::format(R"(,"{}":1)", name)),
                         Spec("b.nc", 1, fmt::format(R"(,"{}":2)", name))}),
                HasSubstr(fmt::format("attribute \"{}\" is 2 here but 1 in", name)));
  }
  EXPECT_THAT(ErrorOf({Spec("a.nc", 0, R"(,"valid_range":[0,10])"),
                       Spec("b.nc", 1, R"(,"valid_range":[0,20])")}),
              HasSubstr("attribute \"valid_range\" is [0,20] here but [0,10] in part 0"));
}

TEST(CombineAttributesTest, UnitsOfAConcatenatedVariableMustAgree) {
  PartSpec b = Spec("b.nc", 1, "");
  std::vector<ReferenceSet> parts = {MakePart(Spec("a.nc", 0, "")), MakePart(b)};
  parts[1].SetText("tas/.zattrs", R"({"_ARRAY_DIMENSIONS":["time","lat"],"units":"degC"})");
  auto r = CombineReferenceSets(std::move(parts), {});
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(r.status().message(),
              HasSubstr("variable \"tas\": attribute \"units\" is \"degC\" here but \"K\" in"));
}

TEST(CombineAttributesTest, AMissingAttributeIsADifference) {
  EXPECT_THAT(ErrorOf({Spec("a.nc", 0, R"(,"add_offset":273.15)"), Spec("b.nc", 1, "")}),
              HasSubstr("attribute \"add_offset\" is absent here but 273.15 in part 0 (a.nc)"));
}

// The JSON of a float32 attribute is its exact double value; the message says what it was.
TEST(CombineAttributesTest, Float32AndDoubleOfTheSameDecimalDiffer) {
  EXPECT_THAT(ErrorOf({Spec("a.nc", 0, R"(,"scale_factor":0.1)"),
                       Spec("b.nc", 1, R"(,"scale_factor":0.10000000149011612)")}),
              HasSubstr("attribute \"scale_factor\" is 0.10000000149011612 (0.1 as a 32-bit "
                        "float) here but 0.1 in part 0 (a.nc)"));
}

TEST(CombineAttributesTest, IntegerAndFloatOfTheSameValueDiffer) {
  EXPECT_THAT(ErrorOf({Spec("a.nc", 0, R"(,"missing_value":-999.0)"),
                       Spec("b.nc", 1, R"(,"missing_value":-999)")}),
              HasSubstr("attribute \"missing_value\" is -999 (an integer) here but -999.0 (a "
                        "floating-point number) in part 0 (a.nc)"));
}

TEST(CombineAttributesTest, ZarrFillValueIsTheFillValueAttribute) {
  PartSpec a = Spec("a.nc", 0, ""), b = Spec("b.nc", 1, "");
  a.fill_value = "1e+20";
  b.fill_value = "-999.0";
  EXPECT_THAT(ErrorOf({a, b}), HasSubstr("part 1 (b.nc): variable \"tas\": attribute "
                                         "\"_FillValue\" (.zarray fill_value) is -999.0 here "
                                         "but 1e+20 in part 0 (a.nc)"));
  b.fill_value = "1e+20";
  EXPECT_EQ(ErrorOf({a, b}), "(combined)");
}

TEST(CombineAttributesTest, FirstKeepsTheFirstValuesAndWarnsPerPart) {
  PartSpec a = Spec("a.nc", 0, R"(,"add_offset":0.0,"scale_factor":0.5)");
  PartSpec b = Spec("b.nc", 1, R"(,"add_offset":1.0,"scale_factor":0.25)");
  PartSpec c = Spec("c.nc", 2, R"(,"add_offset":0.0,"scale_factor":0.5)");
  PartSpec d = Spec("d.nc", 3, R"(,"add_offset":0.0,"scale_factor":0.5)");
  d.fill_value = "7";
  std::vector<std::string> warnings;
  auto r = Combine({a, b, c, d}, OnAttributeConflict::kFirst, &warnings);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(TasAttrs(*r).Find("scale_factor")->as_double(), 0.5);
  EXPECT_EQ(TasAttrs(*r).Find("add_offset")->as_double(), 0.0);
  EXPECT_TRUE(ZarrArrayMeta::Parse(EntryText(*r, "tas/.zarray"))->fill_value.is_null());
  ASSERT_EQ(warnings.size(), 2u) << ::testing::PrintToString(warnings);
  EXPECT_EQ(warnings[0],
            "part 1 (b.nc): value attributes differ from the first part's, which are kept, so "
            "this file's values read wrongly: \"tas\" \"scale_factor\" 0.25 (first part: 0.5); "
            "\"tas\" \"add_offset\" 1.0 (first part: 0.0)");
  EXPECT_EQ(warnings[1],
            "part 3 (d.nc): value attributes differ from the first part's, which are kept, so "
            "this file's values read wrongly: \"tas\" \"_FillValue\" (.zarray fill_value) 7 "
            "(first part: null)");
}

TEST(CombineAttributesTest, OtherAttributesComeFromTheFirstPart) {
  std::vector<std::string> warnings;
  auto r = Combine({Spec("a.nc", 0, R"(,"history":"made 1st","scale_factor":2)"),
                    Spec("b.nc", 1, R"(,"history":"made 2nd","scale_factor":2)")},
                   OnAttributeConflict::kError, &warnings);
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(TasAttrs(*r).Find("history")->as_string(), "made 1st");
  EXPECT_TRUE(warnings.empty()) << ::testing::PrintToString(warnings);
}

// lat is taken from the first part as it is; its attributes are not compared.
TEST(CombineAttributesTest, VariablesTakenFromTheFirstPartAreNotCompared) {
  std::vector<ReferenceSet> parts = {MakePart(Spec("a.nc", 0, "")), MakePart(Spec("b.nc", 1, ""))};
  parts[1].SetText("lat/.zattrs", R"({"_ARRAY_DIMENSIONS":["lat"],"scale_factor":3})");
  EXPECT_TRUE(CombineReferenceSets(std::move(parts), {}).ok());
}

}  // namespace
}  // namespace kerchunk
