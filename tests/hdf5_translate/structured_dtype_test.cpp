// Compound datasets as zarr structured dtypes: packed layouts become byte-range references
// with a dtype list (and h5py's complex pair a complex dtype) whose bytes assemble to libhdf5's
// H5Dread; padded layouts and members zarr cannot hold stay unsupported (OnUnsupported).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <string>

#include "hdf5_translate/array_decoder.h"
#include "hdf5_translate/translator_fixture.h"
#include "kerchunk/util/base64.h"
#include "support/hdf5_structured_fixtures.h"

namespace kerchunk::testing {
namespace {

using ::testing::HasSubstr;

// Written once per test process, and removed with its folder when the process ends (a leaked
// one left a folder in /tmp per test, six a run).
struct StructuredFile {
  StructuredFile() {
    auto written = WriteStructuredFixture(dir.path());
    EXPECT_TRUE(written.ok()) << written.status().ToString();
    path = written.ok() ? *written : "";
  }
  TempDir dir;
  std::string path;
};

const StructuredFile& File() {
  static const StructuredFile file;
  return file;
}

FileScanResult Scan(OnUnsupported policy) {
  FileScanOptions options;
  options.on_unsupported = policy;
  auto result = ScanHdf5File(File().path, "structured.h5", options);
  EXPECT_TRUE(result.ok()) << result.status().ToString();
  return result.ok() ? std::move(*result) : FileScanResult{};
}

TEST(StructuredDtype, PackedCompoundIsAStructuredDtype) {
  const FileScanResult r = Scan(OnUnsupported::kSkip);
  const json::Value zarray = MetaJson(r.refs, "packed/.zarray");
  ASSERT_TRUE(zarray.is_object());
  EXPECT_EQ(*zarray.Find("dtype"), ParseJson(kPackedDtypeJson));
  EXPECT_EQ(zarray.Find("chunks")->Dump(), "[4]");
  // shuffle with the compound's size as element size, then zlib (HDF5's pipeline order).
  EXPECT_EQ(zarray.Find("filters")->Dump(),
            R"([{"elementsize":48,"id":"shuffle"},{"id":"zlib","level":6}])");
  // zarr 2 writes a structured fill value as base64 of the element's bytes.
  EXPECT_EQ(*zarray.Find("fill_value"), json::Value::String(Base64Encode(PackedFillBytes())));
  for (const char* name : {"grid/contiguous", "compact", "unwritten"}) {
    EXPECT_EQ(*MetaJson(r.refs, std::string(name) + "/.zarray").Find("dtype"),
              ParseJson(kPackedDtypeJson))
        << name;
  }
  // The default fill value: zeros.
  EXPECT_EQ(*MetaJson(r.refs, "grid/contiguous/.zarray").Find("fill_value"),
            json::Value::String(Base64Encode(std::string(48, '\0'))));
}

TEST(StructuredDtype, FieldsKeepTheFilesByteOrder) {
  const FileScanResult r = Scan(OnUnsupported::kSkip);
  EXPECT_EQ(MetaJson(r.refs, "big_endian/.zarray").Find("dtype")->Dump(),
            R"([["a",">i4"],["b",">f8"]])");
}

TEST(StructuredDtype, ComplexPairIsAComplexDtype) {
  const FileScanResult r = Scan(OnUnsupported::kSkip);
  const json::Value zarray = MetaJson(r.refs, "complex/.zarray");
  ASSERT_TRUE(zarray.is_object());
  EXPECT_EQ(zarray.Find("dtype")->Dump(), R"("<c16")");
  EXPECT_EQ(zarray.Find("fill_value")->Dump(), "[0.0,0.0]");
}

TEST(StructuredDtype, ReferencesAssembleToTheLibrarysValues) {
  const FileScanResult r = Scan(OnUnsupported::kSkip);
  // packed, contiguous, compact, unwritten (its unwritten chunk from the fill value), complex,
  // big_endian.
  EXPECT_EQ(ExpectArraysDecodeLikeLibrary(r.refs, File().path), 6);
}

TEST(StructuredDtype, PaddedAndVlenMembersStayUnsupported) {
  const FileScanResult r = Scan(OnUnsupported::kSkip);
  EXPECT_EQ(r.refs.FindEntry("padded/.zarray"), nullptr);
  EXPECT_EQ(r.refs.FindEntry("vlen_member/.zarray"), nullptr);
  EXPECT_THAT(r.warnings,
              ::testing::Contains("dataset /padded skipped: compound type with padding: member 'b' "
                                  "at byte 4, packed at 1"));
  EXPECT_THAT(r.warnings,
              ::testing::Contains("dataset /vlen_member skipped: compound type: member 's' is a "
                                  "variable-length string"));
  FileScanOptions options;  // OnUnsupported::kError
  auto failed = ScanHdf5File(File().path, "structured.h5", options);
  ASSERT_FALSE(failed.ok());
  EXPECT_EQ(failed.status().code(), StatusCode::kUnsupported);
  EXPECT_THAT(failed.status().message(), HasSubstr("dataset /padded: compound type with padding"));
}

TEST(StructuredDtype, InlinePolicyAppliesToUnsupportedCompounds) {
  FileScanOptions options;
  options.on_unsupported = OnUnsupported::kInline;
  auto result = ScanHdf5File(File().path, "structured.h5", options);
  // /padded is inlined (libhdf5 packs its rows); a variable-length member has no numpy layout.
  ASSERT_FALSE(result.ok());
  EXPECT_THAT(result.status().message(),
              HasSubstr("dataset /vlen_member: compound type: member 's' is a variable-length "
                        "string; cannot inline it"));
}

}  // namespace
}  // namespace kerchunk::testing
