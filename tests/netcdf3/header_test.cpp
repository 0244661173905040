// ParseHeader on hand-built bytes: the layout it derives and each error it reports (code and
// message), including the inputs netCDF-C refuses to write.
#include "kerchunk/netcdf3/header.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "netcdf3/header_builder.h"

namespace kerchunk::netcdf3 {
namespace {

using ::kerchunk::testing::HeaderBuilder;
using ::testing::AllOf;
using ::testing::HasSubstr;

constexpr uint32_t kDims = 0x0A, kVars = 0x0B, kAttrs = 0x0C;
constexpr uint32_t kByte = 1, kChar = 2, kShort = 3, kInt = 4, kFloat = 5, kDouble = 6;

// dims x=3, time=unlimited; fixed float a(x) and record short r(time, x): one record variable,
// so records are 6 bytes apart (unpadded).
HeaderBuilder SmallFile(int version, uint64_t numrecs, uint64_t records_in_file) {
  uint64_t w = version == 5 ? 8 : 4, o = version == 1 ? 4 : 8;
  HeaderBuilder b(version);
  b.Magic().Count(numrecs).List(kDims, 2).Dim("x", 3).Dim("time", 0).Absent().List(kVars, 2);
  // A variable entry: name (count + 4 bytes), rank, ids, ABSENT, type, vsize, begin.
  uint64_t var_a = w + 4 + w + w + (4 + w) + 4 + w + o;
  uint64_t var_r = var_a + w;
  uint64_t begin_a = b.size() + var_a + var_r;
  b.Var("a", {0}, kFloat, 12, begin_a).Var("r", {1, 0}, kShort, 8, begin_a + 12);
  b.Fill(12 + 6 * records_in_file, 0x11);
  return b;
}

Status ErrorOf(std::span<const std::byte> bytes) { return ParseHeader(bytes).status(); }

TEST(Netcdf3HeaderTest, ParsesMinimalFile) {
  HeaderBuilder b(1);
  b.Magic().Count(0).Absent().Absent().Absent();
  auto h = ParseHeader(b.span());
  ASSERT_TRUE(h.ok()) << h.status().message();
  EXPECT_EQ(h->format, Format::kClassic);
  EXPECT_EQ(h->header_size, 32u);
  EXPECT_TRUE(h->variables.empty());
  EXPECT_EQ(h->record_size, 0u);
}

TEST(Netcdf3HeaderTest, DerivesShapesAndUnpaddedRecordsOfASingleRecordVariable) {
  for (int version : {1, 2, 5}) {
    SCOPED_TRACE(version);
    HeaderBuilder b = SmallFile(version, 4, 4);
    auto h = ParseHeader(b.span());
    ASSERT_TRUE(h.ok()) << h.status().message();
    EXPECT_EQ(h->format, static_cast<Format>(version));
    ASSERT_EQ(h->variables.size(), 2u);
    const Variable& a = h->variables[0];
    const Variable& r = h->variables[1];
    EXPECT_FALSE(a.is_record);
    EXPECT_EQ(a.shape, (std::vector<uint64_t>{3}));
    EXPECT_EQ(a.slab_bytes, 12u);
    EXPECT_EQ(a.begin, h->header_size);
    EXPECT_TRUE(r.is_record);
    EXPECT_EQ(r.shape, (std::vector<uint64_t>{4, 3}));
    EXPECT_EQ(r.slab_bytes, 6u);
    EXPECT_EQ(r.vsize, 8u) << "stored padded, as the spec asks writers to";
    EXPECT_EQ(h->record_size, 6u) << "exactly one record variable: no padding between records";
  }
}

TEST(Netcdf3HeaderTest, PadsRecordsOfSeveralRecordVariables) {
  HeaderBuilder b(1);
  b.Magic().Count(2).List(kDims, 1).Dim("t", 0).Absent().List(kVars, 2);
  uint64_t begin = b.size() + 2 * (4 + 4 + 4 + 4 + 8 + 4 + 4 + 4);
  b.Var("c", {0}, kChar, 4, begin).Var("s", {0}, kShort, 4, begin + 4);
  b.Fill(16);
  auto h = ParseHeader(b.span());
  ASSERT_TRUE(h.ok()) << h.status().message();
  EXPECT_EQ(h->record_size, 8u);
  EXPECT_EQ(h->variables[0].slab_bytes, 1u);
  EXPECT_EQ(h->variables[1].slab_bytes, 2u);
}

TEST(Netcdf3HeaderTest, StreamingNumrecsCountsCompleteRecords) {
  HeaderBuilder b = SmallFile(1, 0xFFFFFFFFu, 3);
  b.Fill(5);  // a partial fourth record
  auto h = ParseHeader(b.span());
  ASSERT_TRUE(h.ok()) << h.status().message();
  EXPECT_TRUE(h->streaming);
  EXPECT_EQ(h->num_records, 3u);
  EXPECT_EQ(h->variables[1].shape[0], 3u);
  HeaderBuilder b5 = SmallFile(5, UINT64_MAX, 2);
  auto h5 = ParseHeader(b5.span());
  ASSERT_TRUE(h5.ok()) << h5.status().message();
  EXPECT_TRUE(h5->streaming);
  EXPECT_EQ(h5->num_records, 2u);
}

TEST(Netcdf3HeaderTest, RejectsFilesThatAreNotNetcdf3) {
  HeaderBuilder hdf;
  hdf.Raw("\x89HDF\r\n\x1a\n").Fill(32);
  Status s = ErrorOf(hdf.span());
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(s.message(), HasSubstr("expected magic number \"CDF\", got \"?HD\""));
  HeaderBuilder tiny;
  tiny.Raw("CD");
  EXPECT_EQ(ErrorOf(tiny.span()).code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(ErrorOf({}).code(), StatusCode::kInvalidArgument);
}

TEST(Netcdf3HeaderTest, RejectsUnknownVersion) {
  HeaderBuilder b(3);
  b.Magic().Count(0).Absent().Absent().Absent();
  Status s = ErrorOf(b.span());
  EXPECT_EQ(s.code(), StatusCode::kUnsupported);
  EXPECT_THAT(s.message(), HasSubstr("unsupported NetCDF-3 format version 3"));
}

TEST(Netcdf3HeaderTest, HugeAttributeCountIsAnErrorNotAnAllocation) {
  HeaderBuilder b(1);
  b.Magic().Count(0).Absent().List(kAttrs, 0x80000000u).Fill(200 - 20);
  Status s = ErrorOf(b.span());
  EXPECT_EQ(s.code(), StatusCode::kDataLoss);
  EXPECT_THAT(s.message(), AllOf(HasSubstr("global attribute list claims 2147483648 entries"),
                                 HasSubstr("only 180 bytes remain"), HasSubstr("address 16")));
}

TEST(Netcdf3HeaderTest, HugeCdf5CountsAreErrors) {
  HeaderBuilder dims(5);
  dims.Magic().Count(0).List(kDims, uint64_t{1} << 62).Fill(64);
  EXPECT_THAT(ErrorOf(dims.span()).message(),
              HasSubstr("dimension list claims 4611686018427387904"));
  // An attribute of 2^62 doubles: the byte count overflows 64 bits.
  HeaderBuilder values(5);
  values.Magic().Count(0).Absent().List(kAttrs, 1).Name("a").U32(kDouble).Count(uint64_t{1} << 62);
  Status s = ErrorOf(values.span());
  EXPECT_EQ(s.code(), StatusCode::kDataLoss);
  EXPECT_THAT(s.message(), HasSubstr("overflow 64 bits"));
  // A name longer than the file.
  HeaderBuilder name(5);
  name.Magic().Count(0).List(kDims, 1).Count(1u << 30).Fill(16);
  EXPECT_THAT(ErrorOf(name.span()).message(), HasSubstr("truncated dimension name"));
}

TEST(Netcdf3HeaderTest, VariablePastEndOfFileNamesVariableAndOffsets) {
  HeaderBuilder b(1);
  b.Magic().Count(0).List(kDims, 1).Dim("x", 100).Absent().List(kVars, 1);
  b.Var("temperature", {0}, kDouble, 800, 1000).Fill(16);
  Status s = ErrorOf(b.span());
  EXPECT_EQ(s.code(), StatusCode::kDataLoss);
  EXPECT_THAT(s.message(), HasSubstr("variable \"temperature\": values at [1000, 1800) lie past "
                                     "the end of the file (" +
                                     std::to_string(b.size()) + " bytes)"));
}

TEST(Netcdf3HeaderTest, RecordPastEndOfFileNamesVariableAndRecord) {
  HeaderBuilder b = SmallFile(2, 10, 2);
  Status s = ErrorOf(b.span());
  EXPECT_EQ(s.code(), StatusCode::kDataLoss);
  EXPECT_THAT(s.message(), HasSubstr("record variable \"r\": record 9 of 10 at ["));
  EXPECT_THAT(s.message(), HasSubstr("past the end of the file"));
}

TEST(Netcdf3HeaderTest, TruncatedHeaderNamesAddressAndField) {
  HeaderBuilder b(1);
  b.Magic().Count(0).List(kDims, 1).Name("x");
  Status s = ErrorOf(b.span());
  EXPECT_EQ(s.code(), StatusCode::kDataLoss);
  EXPECT_THAT(s.message(), HasSubstr("NetCDF-3 header at address 24: truncated dimension length"));
}

TEST(Netcdf3HeaderTest, ChecksListTagsButAcceptsAnyTagOnEmptyLists) {
  HeaderBuilder wrong(1);
  wrong.Magic().Count(0).List(kVars, 1).Dim("x", 1).Absent().Absent();
  Status s = ErrorOf(wrong.span());
  EXPECT_EQ(s.code(), StatusCode::kDataLoss);
  EXPECT_THAT(s.message(), HasSubstr("dimension list: expected tag 0x0a, got 0xb"));
  HeaderBuilder empty(1);
  empty.Magic().Count(0).List(kDims, 0).List(kVars, 0).List(kAttrs, 0);
  EXPECT_TRUE(ParseHeader(empty.span()).ok());
}

TEST(Netcdf3HeaderTest, RejectsBadTypesDimensionIdsAndRecordDimensionPosition) {
  auto one_var = [](std::vector<uint64_t> dims, uint32_t type) {
    HeaderBuilder b(1);
    b.Magic().Count(1).List(kDims, 2).Dim("t", 0).Dim("x", 2).Absent().List(kVars, 1);
    b.Var("v", std::move(dims), type, 8, b.size() + 36 + 4 * 2).Fill(64);
    return ErrorOf(b.span());
  };
  EXPECT_THAT(one_var({1}, 0).message(), HasSubstr("expected an nc_type in 1..11, got 0"));
  EXPECT_THAT(one_var({1}, 12).message(), HasSubstr("got 12"));
  EXPECT_THAT(one_var({7}, kInt).message(),
              HasSubstr("variable \"v\": dimension 0 has id 7, but the file defines 2"));
  EXPECT_THAT(one_var({1, 0}, kInt).message(),
              HasSubstr("the record dimension \"t\" must be the first dimension, got position 1"));
  EXPECT_TRUE(one_var({0, 1}, kInt).ok());
}

TEST(Netcdf3HeaderTest, RejectsTooManyDimensionsOfAVariable) {
  HeaderBuilder b(1);
  b.Magic().Count(0).List(kDims, 1).Dim("x", 1).Absent().List(kVars, 1).Name("v").Count(2000);
  b.Fill(2000 * 4 + 64);
  Status s = ErrorOf(b.span());
  EXPECT_EQ(s.code(), StatusCode::kDataLoss);
  EXPECT_THAT(s.message(), HasSubstr("variable \"v\": expected at most 1024 dimensions, got 2000"));
}

TEST(Netcdf3HeaderTest, ChecksVariablePlacementAsNetcdfCDoes) {
  auto two_vars = [](uint64_t begin_a, uint64_t begin_b) {
    HeaderBuilder b(1);
    b.Magic().Count(0).List(kDims, 1).Dim("x", 4).Absent().List(kVars, 2);
    b.Var("a", {0}, kInt, 16, begin_a).Var("b", {0}, kInt, 16, begin_b).Fill(200);
    return ErrorOf(b.span());
  };
  // The header ends at 8 (magic, numrecs) + 20 (dimension list) + 8 (ABSENT) + 8 + 2 * 36.
  EXPECT_TRUE(two_vars(116, 132).ok());
  EXPECT_THAT(two_vars(100, 132).message(),
              HasSubstr("variable \"a\" begins at offset 100, before the end of the header at "
                        "offset 116"));
  EXPECT_THAT(two_vars(116, 128).message(),
              HasSubstr("variable \"b\" begins at offset 128, before the end of variable \"a\" at "
                        "offset 132"));
}

TEST(Netcdf3HeaderTest, ChecksNames) {
  auto with_var_name = [](std::string_view name) {
    HeaderBuilder b(1);
    b.Magic().Count(0).Absent().Absent().List(kVars, 1);
    b.Var(name, {}, kByte, 4, b.size() + 28 + (name.size() + 3) / 4 * 4).Fill(4);
    return ErrorOf(b.span());
  };
  EXPECT_TRUE(with_var_name("temp\xC3\xA9rature").ok());
  Status utf8 = with_var_name("bad\xC3(");
  EXPECT_EQ(utf8.code(), StatusCode::kDataLoss);
  EXPECT_THAT(utf8.message(), HasSubstr("variable name is not valid UTF-8"));
  Status slash = with_var_name("a/b");
  EXPECT_EQ(slash.code(), StatusCode::kUnsupported);
  EXPECT_THAT(slash.message(), HasSubstr("variable name \"a/b\" cannot be a zarr key"));
  EXPECT_EQ(with_var_name(".zattrs").code(), StatusCode::kUnsupported);
  EXPECT_EQ(with_var_name("").code(), StatusCode::kDataLoss);
  EXPECT_TRUE(with_var_name(std::string_view("a\0b", 3)).ok()) << "read as the C string \"a\"";
  EXPECT_EQ(with_var_name(std::string_view("\0b", 2)).code(), StatusCode::kDataLoss);

  // netcdf-c's own nctest files store the dimension name "pp" as 8 bytes, NUL-padded.
  HeaderBuilder padded(1);
  padded.Magic().Count(0).List(kDims, 1).Name(std::string_view("pp\0\0\0\0\0\0", 8)).Count(7);
  padded.Absent().Absent();
  auto h = ParseHeader(padded.span());
  ASSERT_TRUE(h.ok()) << h.status().message();
  EXPECT_EQ(h->dimensions[0].name, "pp");

  HeaderBuilder twice(1);
  twice.Magic().Count(0).Absent().Absent().List(kVars, 2);
  uint64_t begin = twice.size() + 2 * 32;
  twice.Var("v", {}, kByte, 4, begin).Var("v", {}, kByte, 4, begin + 4).Fill(8);
  Status dup = ErrorOf(twice.span());
  EXPECT_EQ(dup.code(), StatusCode::kDataLoss);
  EXPECT_THAT(dup.message(), HasSubstr("two variables are named \"v\""));

  HeaderBuilder attr(1);
  attr.Magic().Count(0).Absent().List(kAttrs, 1).Name("\xFF").U32(kChar).Count(1).Raw("x").Pad();
  attr.Absent();
  EXPECT_THAT(ErrorOf(attr.span()).message(),
              HasSubstr("global attributes: attribute name is not valid UTF-8"));
}

TEST(Netcdf3HeaderTest, AcceptsNonZeroPaddingAsNetcdfCDoes) {
  // As in netcdf-c's ref_null_byte_padding_test.nc, whose names are padded with '0'.
  HeaderBuilder b(1);
  b.Magic().Count(0).Absent().List(kAttrs, 1).Name("abcde", '0').U32(kShort).Count(1).U32(7u << 16);
  b.Absent();
  auto h = ParseHeader(b.span());
  ASSERT_TRUE(h.ok()) << h.status().message();
  EXPECT_EQ(h->attributes[0].name, "abcde");
  EXPECT_EQ(h->attributes[0].values, std::string("\x00\x07", 2));
}

}  // namespace
}  // namespace kerchunk::netcdf3
