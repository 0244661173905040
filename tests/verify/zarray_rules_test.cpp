// The .zarray rules on their own: numpy dtypes, zarr fill values, numcodecs configurations.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "verify/metadata.h"

namespace kerchunk::verify::internal {
namespace {

using json::Value;
using ::testing::HasSubstr;

Value J(std::string_view text) {
  Result<Value> v = Value::Parse(text);
  EXPECT_TRUE(v.ok()) << text;
  return v.ok() ? *v : Value();
}

TEST(DtypeTest, AcceptsWhatNumpyWrites) {
  struct Case {
    const char* dtype;
    char kind;
    uint64_t itemsize;
  };
  for (const Case& c :
       {Case{"\"<f4\"", 'f', 4}, Case{"\">i8\"", 'i', 8}, Case{"\"|u1\"", 'u', 1},
        Case{"\"|b1\"", 'b', 1}, Case{"\"|S12\"", 'S', 12}, Case{"\"<U3\"", 'U', 12},
        Case{"\"<M8[ns]\"", 'M', 8}, Case{"\"<m8[10s]\"", 'm', 8}, Case{"\"<M8\"", 'M', 8},
        Case{"\"|O\"", 'O', 0}, Case{"\"<c16\"", 'c', 16}, Case{"\"|V7\"", 'V', 7}}) {
    Result<DtypeInfo> d = ParseDtype(J(c.dtype));
    ASSERT_TRUE(d.ok()) << c.dtype << ": " << d.status().message();
    EXPECT_EQ(d->kind, c.kind) << c.dtype;
    EXPECT_EQ(d->itemsize, c.itemsize) << c.dtype;
  }
}

TEST(DtypeTest, RecordSizeIsThePackedSum) {
  Result<DtypeInfo> d = ParseDtype(J(R"([["a", "<f8"], ["b", "|S3"], ["c", "<i2", [2, 3]]])"));
  ASSERT_TRUE(d.ok()) << d.status().message();
  EXPECT_TRUE(d->record);
  EXPECT_EQ(d->itemsize, 8u + 3u + 12u);
}

TEST(DtypeTest, RejectsWhatNumpyRejects) {
  struct Case {
    const char* dtype;
    const char* why;
  };
  for (const Case& c :
       {Case{"\"<f3\"", "a float has 2, 4, 8 or 16 bytes"},
        Case{"\"<i3\"", "an integer has 1, 2, 4 or 8 bytes"},
        Case{"\"f4\"", "expected a byte order"}, Case{"\"<x4\"", "unknown kind"},
        Case{"\"|S0\"", "at least 1"}, Case{"\"<M8[eons]\"", "datetime unit"},
        Case{"\"<f4x\"", "decimal item size"}, Case{"4", "expected a string or a list"},
        Case{R"([["a", "<f8"], ["a", "<f4"]])", "appears twice"},
        Case{R"([["a"]])", "[name, dtype]"}}) {
    Result<DtypeInfo> d = ParseDtype(J(c.dtype));
    ASSERT_FALSE(d.ok()) << c.dtype;
    EXPECT_EQ(d.status().code(), StatusCode::kInvalidArgument);
    EXPECT_THAT(d.status().message(), HasSubstr(c.why)) << c.dtype;
  }
}

TEST(FillValueTest, FollowsZarrDecoding) {
  auto check = [](const char* dtype, const char* fill) {
    Result<DtypeInfo> d = ParseDtype(J(dtype));
    EXPECT_TRUE(d.ok());
    return CheckFillValue(J(fill), *d);
  };
  EXPECT_TRUE(check("\"<f4\"", "\"NaN\"").ok());
  EXPECT_TRUE(check("\"<f4\"", "-1e+20").ok());
  EXPECT_TRUE(check("\"<i2\"", "-32768").ok());
  EXPECT_TRUE(check("\"|u1\"", "255").ok());
  EXPECT_TRUE(check("\"<u8\"", "18446744073709551615").ok());
  EXPECT_TRUE(check("\"|b1\"", "false").ok());
  EXPECT_TRUE(check("\"<c8\"", "[1.0, \"NaN\"]").ok());
  EXPECT_TRUE(check("\"|S4\"", "0").ok());  // zarr falls back to the value itself
  EXPECT_TRUE(check("\"|V2\"", "\"AAA=\"").ok());
  EXPECT_TRUE(check("\"<f8\"", "null").ok());
  EXPECT_THAT(check("\"<f4\"", "\"nan\"").message(), HasSubstr("neither a number nor"));
  EXPECT_THAT(check("\"|i1\"", "200").message(), HasSubstr("does not fit a signed 8-bit"));
  EXPECT_THAT(check("\"|u1\"", "-1").message(), HasSubstr("does not fit an unsigned 8-bit"));
  EXPECT_THAT(check("\"<i4\"", "1.5").message(), HasSubstr("is not an integer"));
  EXPECT_THAT(check("\"<c8\"", "1.0").message(), HasSubstr("[real, imaginary]"));
  EXPECT_THAT(check("\"|V2\"", "0").message(), HasSubstr("is not base64"));
  EXPECT_THAT(check("\"|b1\"", "\"yes\"").message(), HasSubstr("is not a boolean"));
}

TEST(CodecConfigTest, KnownIdsAndRequiredParameters) {
  EXPECT_TRUE(CheckCodecConfig(J(R"({"id": "zlib", "level": 4})"), "compressor").ok());
  EXPECT_TRUE(CheckCodecConfig(J(R"({"id": "lz4", "acceleration": 1})"), "compressor").ok());
  EXPECT_TRUE(CheckCodecConfig(J(R"({"id": "fletcher32"})"), "filters[0]").ok());
  EXPECT_THAT(CheckCodecConfig(J(R"({"id": "zlibb"})"), "compressor").message(),
              HasSubstr("compressor: codec id \"zlibb\" is not known to numcodecs"));
  EXPECT_THAT(CheckCodecConfig(J(R"({"level": 1})"), "compressor").message(),
              HasSubstr("expected a string \"id\""));
  EXPECT_THAT(CheckCodecConfig(J(R"({"id": "delta"})"), "filters[1]").message(),
              HasSubstr("filters[1]: codec \"delta\" requires the parameter \"dtype\""));
  EXPECT_THAT(CheckCodecConfig(J(R"({"id": "zlib", "level": 12})"), "compressor").message(),
              HasSubstr("compressor: zlib: expected \"level\" in [-1, 9], got 12"));
  EXPECT_THAT(CheckCodecConfig(J("[1]"), "filters[0]").message(),
              HasSubstr("expected a codec configuration object"));
}

TEST(CodecConfigTest, ObjectCodecsBelongToObjectArrays) {
  auto check = [](const char* zarray) {
    Result<ZarrArrayMeta> meta = ZarrArrayMeta::Parse(zarray);
    EXPECT_TRUE(meta.ok()) << meta.status().message();
    Result<DtypeInfo> d = ParseDtype(meta->dtype_json);
    EXPECT_TRUE(d.ok());
    return CheckCodecs(*meta, *d);
  };
  const char* kHead = R"({"zarr_format": 2, "shape": [2], "chunks": [2], "order": "C", )";
  EXPECT_TRUE(check((std::string(kHead) + R"("dtype": "|O", "fill_value": null, )"
                                          R"("compressor": null, "filters": [{"id": "json2"}]})")
                        .c_str())
                  .ok());
  EXPECT_THAT(check((std::string(kHead) + R"("dtype": "|O", "fill_value": null, )"
                                          R"("compressor": null, "filters": null})")
                        .c_str())
                  .message(),
              HasSubstr("needs an object codec"));
  EXPECT_THAT(check((std::string(kHead) + R"("dtype": "<f4", "fill_value": null, )"
                                          R"("compressor": null, "filters": [{"id": "json2"}]})")
                        .c_str())
                  .message(),
              HasSubstr("only valid as the first filter of an object"));
}

}  // namespace
}  // namespace kerchunk::verify::internal
