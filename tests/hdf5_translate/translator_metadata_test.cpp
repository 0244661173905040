// .zgroup / .zarray / .zattrs and chunk keys of the translation fixture, field by field, as
// Python kerchunk 0.2.2 would write them (or better, where docs/differences.md says so).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "hdf5_translate/translator_fixture.h"

namespace kerchunk::testing {
namespace {

using ::testing::HasSubstr;

const ReferenceSet& Refs() { return Translated().result.refs; }

json::Value Zarray(std::string_view path) {
  return MetaJson(Refs(), std::string(path) + "/.zarray");
}
json::Value Zattrs(std::string_view path) {
  return MetaJson(Refs(), std::string(path) + "/.zattrs");
}

TEST(TranslatorMetadata, GroupsAndTheirAttributes) {
  EXPECT_EQ(MetaJson(Refs(), ".zgroup"), ParseJson(R"({"zarr_format":2})"));
  EXPECT_EQ(MetaJson(Refs(), "g1/.zgroup"), ParseJson(R"({"zarr_format":2})"));
  // Fixed-length strings lose their NUL padding, _NCProperties is hidden, a null dataspace
  // attribute becomes "".
  EXPECT_EQ(
      MetaJson(Refs(), ".zattrs"),
      ParseJson(R"({"title":"demo","history":"made by a test \u00e9","version":3,"empty":""})"));
  EXPECT_EQ(MetaJson(Refs(), "g1/.zattrs"),
            ParseJson(R"({"nan":NaN,"vec":[0.5,1.25,-2.0],"one":7,"grid":[[1,2],[3,4]],)"
                      R"("names":["ab","cde"],"flag":true})"));
}

TEST(TranslatorMetadata, ChunkedFilteredDatasetWithDimensionScales) {
  EXPECT_EQ(Zarray("g1/temp"),
            ParseJson(R"({"chunks":[2,3],"compressor":null,"dtype":"<f4","fill_value":1.5,)"
                      R"("filters":[{"elementsize":4,"id":"shuffle"},{"id":"zlib","level":4}],)"
                      R"("order":"C","shape":[5,7],"zarr_format":2})"));
  EXPECT_EQ(Zattrs("g1/temp"), ParseJson(R"({"_ARRAY_DIMENSIONS":["x","y"],"units":"K"})"));
  const ArrayRefs* temp = Refs().FindArray("g1/temp");
  ASSERT_NE(temp, nullptr);
  EXPECT_EQ(temp->size(), 9u);  // 3 x 3 chunks, all written
  // A scale is its own dimension; its _FillValue attribute becomes fill_value and is stripped.
  EXPECT_EQ(Zattrs("x"), ParseJson(R"({"_ARRAY_DIMENSIONS":["x"]})"));
  EXPECT_EQ(Zattrs("y"), ParseJson(R"({"_ARRAY_DIMENSIONS":["y"]})"));
  EXPECT_EQ(*Zarray("y").Find("fill_value"), json::Value::Double(-9.5));
}

TEST(TranslatorMetadata, TypesAndByteOrder) {
  EXPECT_EQ(Zarray("be_int16").Find("dtype")->as_string(), ">i2");
  EXPECT_EQ(*Zarray("be_int16").Find("chunks"), ParseJson("[3,4]"));
  EXPECT_EQ(Zarray("fixed_str").Find("dtype")->as_string(), "|S6");
  EXPECT_EQ(Zarray("fixed_str").Find("fill_value")->as_string(), "IA==");  // " "
  EXPECT_EQ(Zarray("bools").Find("dtype")->as_string(), "|b1");
  EXPECT_EQ(*Zarray("bools").Find("fill_value"), json::Value::Bool(false));
  EXPECT_EQ(Zarray("scalar"), ParseJson(R"({"chunks":[],"compressor":null,"dtype":"<f8",)"
                                        R"("fill_value":0.0,"filters":null,"order":"C",)"
                                        R"("shape":[],"zarr_format":2})"));
  EXPECT_NE(Refs().FindArray("scalar")->Find(0), std::nullopt);  // key "scalar/0"
  EXPECT_EQ(Zattrs("scalar"), ParseJson(R"({"_ARRAY_DIMENSIONS":[]})"));
}

TEST(TranslatorMetadata, FillValueRules) {
  EXPECT_EQ(Zarray("unwritten").Find("fill_value")->as_string(), "NaN");
  // netCDF variable whose units say "since": null.
  EXPECT_TRUE(Zarray("time").Find("fill_value")->is_null());
  EXPECT_EQ(Zattrs("time"), ParseJson(R"({"_ARRAY_DIMENSIONS":["phony_dim_0"],)"
                                      R"("units":"days since 2000-01-01"})"));
  // Compact data: kerchunk writes it without a fill value.
  EXPECT_TRUE(Zarray("compact").Find("fill_value")->is_null());
}

TEST(TranslatorMetadata, VariableLengthStringsAreEmbeddedAsJson) {
  const json::Value zarray = Zarray("vlen_str");
  EXPECT_EQ(zarray.Find("dtype")->as_string(), "|O");
  EXPECT_EQ(*zarray.Find("filters"),
            ParseJson(R"([{"allow_nan":true,"check_circular":true,"encoding":"utf-8",)"
                      R"("ensure_ascii":true,"id":"json2","indent":null,"separators":[",",":"],)"
                      R"("skipkeys":false,"sort_keys":true,"strict":true}])"));
  EXPECT_TRUE(zarray.Find("fill_value")->is_null());
  const ArrayRefs* a = Refs().FindArray("vlen_str");
  ASSERT_NE(a, nullptr);
  ASSERT_EQ(a->size(), 2u);
  EXPECT_EQ(ParseJson(a->Get(0).data),
            ParseJson(R"(["alpha","\u03b2\u03b7\u03c4\u03b1","","|O",[3]])"));
  EXPECT_EQ(ParseJson(a->Get(1).data), ParseJson(R"(["delta",null,null,"|O",[3]])"));
  const ArrayRefs* s = Refs().FindArray("vlen_scalar");
  ASSERT_NE(s, nullptr);
  ASSERT_EQ(s->size(), 1u);
  // One element, not 0-d: numcodecs cannot decode a 0-d JSON chunk.
  EXPECT_EQ(ParseJson(s->Get(0).data), ParseJson(R"(["only","|O",[1]])"));
}

TEST(TranslatorMetadata, StorageLayouts) {
  // Compact: the raw bytes inline.
  const ArrayRefs* compact = Refs().FindArray("compact");
  ASSERT_NE(compact, nullptr);
  ASSERT_EQ(compact->size(), 1u);
  EXPECT_EQ(compact->Get(0).kind, RefKind::kInline);
  EXPECT_EQ(compact->Get(0).data.size(), 24u);
  // Fletcher32: no filter, each chunk without its 4-byte checksum.
  EXPECT_TRUE(Zarray("fletcher").Find("filters")->is_null());
  const ArrayRefs* fletcher = Refs().FindArray("fletcher");
  ASSERT_EQ(fletcher->size(), 3u);
  EXPECT_EQ(fletcher->Get(0).length, 16u);
  EXPECT_EQ(fletcher->Get(2).length, 16u);  // edge chunks are stored whole
  // Unwritten chunks are omitted; a contiguous dataset never written has no chunk.
  const ArrayRefs* unwritten = Refs().FindArray("unwritten");
  ASSERT_EQ(unwritten->size(), 2u);
  EXPECT_EQ(unwritten->chunk_index(0), 0u);
  EXPECT_EQ(unwritten->chunk_index(1), 2u);
  ASSERT_NE(Refs().FindEntry("never_written/.zarray"), nullptr);
  EXPECT_TRUE(Refs().FindArray("never_written")->empty());
}

TEST(TranslatorMetadata, SkippedDatasetsLeaveWarnings) {
  EXPECT_EQ(Refs().FindEntry("null_space/.zarray"), nullptr);
  // kerchunk leaves out dimension scales without data, silently.
  EXPECT_EQ(Refs().FindEntry("dim_only/.zarray"), nullptr);
  EXPECT_EQ(Refs().FindEntry("compound/.zarray"), nullptr);
  EXPECT_EQ(Refs().FindEntry("nbit/.zarray"), nullptr);
  const auto& w = Translated().result.warnings;
  EXPECT_THAT(w, ::testing::Contains(HasSubstr("dataset /null_space skipped: null dataspace")));
  EXPECT_THAT(w, ::testing::Contains(HasSubstr("dataset /compound skipped: compound type")));
  EXPECT_THAT(w, ::testing::Contains(
                     HasSubstr("dataset /nbit skipped: filter nbit (id 5) has no numcodecs")));
}

}  // namespace
}  // namespace kerchunk::testing
