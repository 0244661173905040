// ScanNetcdf3File on files written by netCDF-C, checked against netCDF-C reading them (the
// oracle), plus the exact metadata and record layout Python kerchunk's NetCDF3ToZarr produces.
#include "kerchunk/netcdf3/translator.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>

#include "kerchunk/json/json_value.h"
#include "kerchunk/netcdf3/header.h"
#include "kerchunk/netcdf3/scan_netcdf3.h"
#include "kerchunk/util/file_io.h"
#include "netcdf3/header_builder.h"
#include "netcdf3/netcdf3_oracle.h"
#include "support/netcdf3_fixtures.h"
#include "support/test_env.h"

namespace kerchunk {
namespace {

using ::kerchunk::testing::MatchesNetcdfC;
using ::kerchunk::testing::Netcdf3Fixture;
using ::testing::HasSubstr;

class Netcdf3FixtureTest : public ::testing::TestWithParam<Netcdf3Fixture> {
 protected:
  std::string Write() {
    auto path = testing::WriteNetcdf3Fixture(GetParam(), dir_.path());
    EXPECT_TRUE(path.ok()) << path.status().message();
    return path.ok() ? *path : std::string();
  }
  testing::TempDir dir_;
};

TEST_P(Netcdf3FixtureTest, EveryVariableMatchesNetcdfC) {
  std::string path = Write();
  ASSERT_FALSE(path.empty());
  auto result = ScanNetcdf3File(path, "s3://bucket/" + GetParam().name + ".nc", {});
  ASSERT_TRUE(result.ok()) << result.status().message();
  EXPECT_EQ(result->refs.urls[0], "s3://bucket/" + GetParam().name + ".nc");
  EXPECT_TRUE(result->warnings.empty());
  uint64_t compared = 0;
  EXPECT_TRUE(MatchesNetcdfC(path, result->refs, &compared));
  std::cout << GetParam().name << ": " << compared << " variables compared\n";
}

TEST_P(Netcdf3FixtureTest, InlinesSmallChunksAndStillMatches) {
  std::string path = Write();
  ASSERT_FALSE(path.empty());
  FileScanOptions options;
  options.inline_threshold = 13;
  auto result = ScanNetcdf3File(path, "x.nc", options);
  ASSERT_TRUE(result.ok()) << result.status().message();
  EXPECT_TRUE(MatchesNetcdfC(path, result->refs));
  uint64_t range_bytes = 0;
  for (const auto& array : result->refs.arrays) {
    for (size_t i = 0; i < array.size(); ++i) {
      ChunkRef ref = array.Get(i);
      if (ref.kind == RefKind::kInline) {
        EXPECT_LT(ref.data.size(), 13u) << array.path();
        EXPECT_TRUE(ref.base64);
      } else {
        EXPECT_GE(ref.length, 13u) << array.path();
        range_bytes += ref.length;
      }
    }
  }
  EXPECT_EQ(result->referenced_bytes, range_bytes);
}

INSTANTIATE_TEST_SUITE_P(Generated, Netcdf3FixtureTest,
                         ::testing::ValuesIn(testing::Netcdf3Fixtures()),
                         [](const auto& p) { return p.param.name; });

// Fixture file + translation, for the layout tests below.
struct Translated {
  testing::TempDir dir;
  std::string path;
  netcdf3::Header header;
  ReferenceSet refs;
};

std::unique_ptr<Translated> TranslateFixture(const std::string& name) {
  auto t = std::make_unique<Translated>();
  auto path = testing::WriteNetcdf3Fixture(testing::Netcdf3FixtureNamed(name), t->dir.path());
  EXPECT_TRUE(path.ok()) << path.status().message();
  t->path = *path;
  auto file = MappedFile::Open(t->path);
  auto header = netcdf3::ParseHeader(file->bytes());
  EXPECT_TRUE(header.ok()) << header.status().message();
  t->header = *header;
  auto refs = netcdf3::Translate(t->header, file->bytes(), "f.nc", {});
  EXPECT_TRUE(refs.ok()) << refs.status().message();
  t->refs = std::move(*refs);
  return t;
}

const netcdf3::Variable& Var(const netcdf3::Header& h, std::string_view name) {
  for (const auto& v : h.variables) {
    if (v.name == name) return v;
  }
  ADD_FAILURE() << "no variable " << name;
  return h.variables.front();
}

std::string Text(const ReferenceSet& refs, const std::string& key) {
  const Entry* e = refs.FindEntry(key);
  return e ? e->value.data : "<missing " + key + ">";
}

json::Value Json(const ReferenceSet& refs, const std::string& key) {
  auto v = json::Value::Parse(Text(refs, key));
  EXPECT_TRUE(v.ok()) << key;
  return v.ok() ? *v : json::Value();
}

TEST(Netcdf3LayoutTest, SingleRecordVariableHasUnpaddedRecords) {
  for (const auto& [name, record] :
       std::vector<std::pair<std::string, uint64_t>>{{"one_record_short_classic", 6},
                                                     {"one_record_char_64bit_offset", 3},
                                                     {"one_record_byte_cdf5", 1}}) {
    SCOPED_TRACE(name);
    auto t = TranslateFixture(name);
    EXPECT_EQ(t->header.record_size, record);
    const auto& v = Var(t->header, "v");
    const ArrayRefs* array = t->refs.FindArray("v");
    ASSERT_NE(array, nullptr);
    ASSERT_EQ(array->size(), v.shape[0]);
    for (size_t i = 0; i < array->size(); ++i) {
      EXPECT_EQ(array->chunk_index(i), i);
      EXPECT_EQ(array->offsets()[i], v.begin + i * record);
      EXPECT_EQ(array->lengths()[i], record);
    }
  }
}

TEST(Netcdf3LayoutTest, SeveralRecordVariablesArePaddedToFourBytes) {
  auto t = TranslateFixture("records_classic");
  // time 8 + rs 6->8 + rc 5->8 + rb 1->4 + ri 12 + rf 60 + rd 8.
  EXPECT_EQ(t->header.record_size, 108u);
  EXPECT_EQ(t->header.num_records, 7u);
  const auto& rc = Var(t->header, "rc");
  const ArrayRefs* array = t->refs.FindArray("rc");
  ASSERT_EQ(array->size(), 7u);
  EXPECT_EQ(array->offsets()[6], rc.begin + 6 * 108);
  EXPECT_EQ(array->lengths()[6], 5u) << "a chunk is the record's values, without padding";
  EXPECT_EQ(Text(t->refs, "rc/.zarray"),
            R"({"chunks":[1,5],"compressor":null,"dtype":"|S1","fill_value":null,)"
            R"("filters":null,"order":"C","shape":[7,5],"zarr_format":2})");
}

TEST(Netcdf3LayoutTest, MetadataIsWhatKerchunkAndZarrWrite) {
  auto t = TranslateFixture("fixed_types_classic");
  EXPECT_EQ(Text(t->refs, ".zgroup"), R"({"zarr_format":2})");
  EXPECT_EQ(Text(t->refs, "scalar_double/.zarray"),
            R"({"chunks":[],"compressor":null,"dtype":">f8","fill_value":null,)"
            R"("filters":null,"order":"C","shape":[],"zarr_format":2})");
  const ArrayRefs* scalar = t->refs.FindArray("scalar_double");
  ASSERT_EQ(scalar->size(), 1u);
  EXPECT_EQ(scalar->KeyPrefix() + scalar->grid().Key(scalar->chunk_index(0)), "scalar_double/0");
  EXPECT_EQ(Text(t->refs, "scalar_double/.zattrs"),
            R"({"_ARRAY_DIMENSIONS":[],"long_name":"a scalar"})");
  EXPECT_EQ(Text(t->refs, "f/.zarray"),
            R"({"chunks":[2,3,5],"compressor":null,"dtype":">f4","fill_value":-999.0,)"
            R"("filters":null,"order":"C","shape":[2,3,5],"zarr_format":2})");
  EXPECT_EQ(Json(t->refs, "d/.zarray").Find("fill_value")->as_string(), "NaN");
  json::Value f = Json(t->refs, "f/.zattrs");
  EXPECT_EQ(f.Find("_FillValue"), nullptr) << "it became the fill_value";
  EXPECT_EQ(f.Find("missing_value")->Dump(), "-1.0");
  EXPECT_EQ(f.Find("valid_range")->Dump(), "[-100.0,100.0]");
  EXPECT_EQ(f.Find("_ARRAY_DIMENSIONS")->Dump(), R"(["z","x","y"])");
  json::Value root = Json(t->refs, ".zattrs");
  EXPECT_EQ(root.Find("text_with_nuls")->as_string(), "units");
  EXPECT_EQ(root.Find("empty_text")->as_string(), "");
  EXPECT_EQ(root.Find("empty_ints")->Dump(), "[]");
  EXPECT_EQ(root.Find("float1")->Dump(), "1.100000023841858");
  EXPECT_EQ(root.Find("floats")->Dump(), "[1.100000023841858,NaN,-Infinity,0.5]");
  EXPECT_EQ(root.Find("bytes")->Dump(), "[-128,0,127]");
  EXPECT_EQ(root.Find("double1")->Dump(), "1e+20");
}

// zarr 2.x reads .zarray and .zattrs as ASCII: non-ASCII text must be \u-escaped, as
// json.dumps(ensure_ascii=True) writes it.
TEST(Netcdf3LayoutTest, MetadataIsAsciiWithEscapes) {
  for (std::string name : {"utf8_names_classic", "fixed_types_cdf5"}) {
    auto t = TranslateFixture(name);
    for (const auto& e : t->refs.entries) {
      for (char c : e.value.data) {
        ASSERT_LT(static_cast<unsigned char>(c), 0x80) << e.key << ": " << e.value.data;
      }
    }
  }
  auto t = TranslateFixture("utf8_names_classic");
  EXPECT_EQ(Text(t->refs, "temp\xC3\xA9rature/.zattrs"),
            R"({"_ARRAY_DIMENSIONS":["gr\u00f6\u00dfe"],"\u00fcnits":"\u00b0C"})");
  auto f = TranslateFixture("fixed_types_classic");
  EXPECT_THAT(Text(f->refs, ".zattrs"),
              HasSubstr(R"("utf8_text":"temp\u00e9rature \u00b0C \ud83c\udf21")"));
  EXPECT_EQ(Json(f->refs, ".zattrs").Find("utf8_text")->as_string(),
            "temp\xC3\xA9rature \xC2\xB0"
            "C \xF0\x9F\x8C\xA1");
}

TEST(Netcdf3LayoutTest, Cdf5TypesAndUnsignedFillValues) {
  auto t = TranslateFixture("cdf5_types");
  EXPECT_EQ(t->header.format, netcdf3::Format::k64BitData);
  EXPECT_EQ(Json(t->refs, "u64/.zarray").Find("dtype")->as_string(), ">u8");
  EXPECT_EQ(Json(t->refs, "u64/.zarray").Find("fill_value")->Dump(), "18446744073709551614");
  EXPECT_EQ(Json(t->refs, "us/.zarray").Find("fill_value")->Dump(), "65000");
  EXPECT_EQ(Json(t->refs, "ub/.zarray").Find("dtype")->as_string(), "|u1");
  EXPECT_EQ(Json(t->refs, ".zattrs").Find("uint64s")->Dump(),
            "[0,9223372036854775808,18446744073709551615]");
}

TEST(Netcdf3LayoutTest, ZeroRecordsGiveEmptyArraysWithoutChunks) {
  auto t = TranslateFixture("empty_records_cdf5");
  EXPECT_EQ(t->header.num_records, 0u);
  EXPECT_EQ(Text(t->refs, "v/.zarray"),
            R"({"chunks":[1,2],"compressor":null,"dtype":">f4","fill_value":null,)"
            R"("filters":null,"order":"C","shape":[0,2],"zarr_format":2})");
  EXPECT_TRUE(t->refs.FindArray("v")->empty());
  EXPECT_TRUE(t->refs.FindArray("time")->empty());
  EXPECT_EQ(t->refs.FindArray("x")->size(), 1u);
}

TEST(Netcdf3LayoutTest, AlignmentGapsAreFollowed) {
  auto t = TranslateFixture("aligned_classic");
  const auto& a = Var(t->header, "a");
  const auto& r1 = Var(t->header, "r1");
  EXPECT_GT(a.begin, t->header.header_size + 900) << "nc__enddef reserved header space";
  EXPECT_EQ(r1.begin % 1024, 0u) << "record section aligned";
  EXPECT_EQ(t->refs.FindArray("r1")->offsets()[2], r1.begin + 2 * t->header.record_size);
}

// numrecs = STREAMING (2^32-1): the records are counted from the file size, with a warning.
TEST(Netcdf3ScanTest, StreamingFileTranslatesWithWarning) {
  testing::HeaderBuilder b(1);
  b.Magic().U32(0xFFFFFFFFu).List(0x0A, 1).Dim("t", 0).Absent().List(0x0B, 1);
  b.Var("v", {0}, /*int*/ 4, 4, b.size() + 36).U32(7).U32(8).U32(9).Raw("xy");
  std::span<const std::byte> bytes = b.span();
  auto result = netcdf3::TranslateNetcdf3(bytes, "stream.nc", "stream.nc", {});
  ASSERT_TRUE(result.ok()) << result.status().message();
  EXPECT_THAT(result->warnings,
              ::testing::ElementsAre("stream.nc: numrecs is STREAMING; 3 complete records found "
                                     "from the file size"));
  EXPECT_THAT(Text(result->refs, "v/.zarray"), HasSubstr(R"("shape":[3])"));
  EXPECT_EQ(result->refs.FindArray("v")->size(), 3u);
}

TEST(Netcdf3ScanTest, ErrorsNameTheFile) {
  testing::TempDir dir;
  std::string path = dir / "short.nc";
  ASSERT_TRUE(WriteFileAtomically(path, std::string_view("CDF\x01\0\0", 6)).ok());
  auto result = ScanNetcdf3File(path, "u", {});
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.status().code(), StatusCode::kDataLoss);
  EXPECT_THAT(result.status().message(), HasSubstr(path + ": NetCDF-3 header at address 4"));
  auto missing = ScanNetcdf3File(dir / "absent.nc", "u", {});
  EXPECT_EQ(missing.status().code(), StatusCode::kNotFound);
}

// 100k records of 4 float variables of 8 values and a double time coordinate: 500k references.
TEST(Netcdf3ScanTest, TranslatesManyRecordsQuickly) {
  testing::TempDir dir;
  constexpr uint64_t kRecords = 100000;
  auto path = testing::WriteLargeRecordFile(dir / "large.nc", kRecords, 4, 8);
  ASSERT_TRUE(path.ok()) << path.status().message();
  auto file = MappedFile::Open(*path);
  ASSERT_TRUE(file.ok());
  auto start = std::chrono::steady_clock::now();
  auto result = netcdf3::TranslateNetcdf3(file->bytes(), *path, "large.nc", {});
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  ASSERT_TRUE(result.ok()) << result.status().message();
  ASSERT_EQ(result->refs.ChunkCount(), 5 * kRecords);
  const ArrayRefs* v3 = result->refs.FindArray("v3");
  uint64_t record = 8 + 4 * 32;
  EXPECT_EQ(v3->offsets()[kRecords - 1] - v3->offsets()[0], (kRecords - 1) * record);
  EXPECT_EQ(v3->offsets()[kRecords - 1] + 32, file->size()) << "the last value ends the file";
  double rate = static_cast<double>(result->refs.ChunkCount()) / seconds;
  std::cout << "translated " << result->refs.ChunkCount() << " references in " << seconds * 1e3
            << " ms: " << rate / 1e6 << " M refs/s\n";
  RecordProperty("refs_per_second", std::to_string(static_cast<uint64_t>(rate)));
#if defined(NDEBUG) && !defined(__SANITIZE_ADDRESS__)
  EXPECT_GT(rate, 2e6) << "optimised builds translate millions of references a second";
#endif
}

}  // namespace
}  // namespace kerchunk
