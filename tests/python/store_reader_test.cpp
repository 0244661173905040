// The C++ side of kerchunk_packed (python/src/store_reader.h) without Python, so that it also
// runs under AddressSanitizer (label unit): the values of every kind of key through a packed
// and a plain index, rewrite rules, and each bad input with its error code and message.
#include "store_reader.h"

#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "kerchunk/json/kerchunk_json.h"
#include "kerchunk/pack/pack.h"
#include "kerchunk/util/file_io.h"
#include "support/test_env.h"

namespace kerchunk::python {
namespace {

namespace fs = std::filesystem;
using Kind = FetchedValue::Kind;

constexpr int kChunks = 200;   // x: 400 one-byte elements in chunks of 2
constexpr int kUnwritten = 5;  // x/5 has no reference
constexpr int kInline = 7;     // x/7 is inline data
constexpr char kInlineBytes[] = "AB";

// data.bin holds bytes 0, 1, ... 255, 0, 1, ...; chunk i of x is bytes [2i, 2i + 2).
class StoreReaderTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string data;
    for (int i = 0; i < 2 * kChunks; ++i) data.push_back(static_cast<char>(i & 0xFF));
    ASSERT_TRUE(WriteFileAtomically(data_path_, data).ok());
    ASSERT_TRUE(WriteFileAtomically(plain_path_, PlainJson(data_path_)).ok());
    auto refs = ParseKerchunkJson(PlainJson(data_path_));
    ASSERT_TRUE(refs.ok()) << refs.status().message();
    auto packed = pack::Pack(*refs);
    ASSERT_TRUE(packed.ok()) << packed.status().message();
    ASSERT_EQ(packed->summary.generators.size(), 1u) << "the test needs generated references";
    packed_text_ = packed->text;
    ASSERT_TRUE(WriteFileAtomically(packed_path_, packed_text_).ok());
  }

  static std::string PlainJson(const std::string& url) {
    std::string refs =
        R"(".zgroup":"{\"zarr_format\":2}",)"
        R"("x/.zarray":"{\"chunks\":[2],\"compressor\":null,\"dtype\":\"|u1\",\"fill_value\":0,)"
        R"(\"filters\":null,\"order\":\"C\",\"shape\":[400],\"zarr_format\":2}",)"
        R"("x/.zattrs":"{\"_ARRAY_DIMENSIONS\":[\"n\"]}")";
    for (int i = 0; i < kChunks; ++i) {
      if (i == kUnwritten) continue;
      if (i == kInline) {
        refs += ",\"x/7\":\"" + std::string(kInlineBytes) + "\"";
        continue;
      }
      refs += ",\"x/" + std::to_string(i) + "\":[\"" + url + "\"," + std::to_string(2 * i) + ",2]";
    }
    return R"({"version":1,"refs":{)" + refs + "}}";
  }

  static std::string ChunkBytes(int i) {
    return {static_cast<char>((2 * i) & 0xFF), static_cast<char>((2 * i + 1) & 0xFF)};
  }

  static std::vector<FetchedValue> Get(const StoreReader& reader,
                                       const std::vector<std::string>& keys) {
    auto values = reader.GetMany(keys);
    EXPECT_TRUE(values.ok()) << values.status().message();
    return values.ok() ? *values : std::vector<FetchedValue>(keys.size());
  }

  // Every key of the store (and two that are not) gives what the plain JSON says.
  static void ExpectTheValues(const StoreReader& reader) {
    std::vector<std::string> keys = {".zgroup", "x/.zattrs", "nothing", "x/400"};
    for (int i = 0; i < kChunks; ++i) keys.push_back("x/" + std::to_string(i));
    auto values = Get(reader, keys);
    ASSERT_EQ(values.size(), keys.size());
    EXPECT_EQ(values[0].kind, Kind::kBytes);
    EXPECT_EQ(values[0].bytes, R"({"zarr_format":2})");
    EXPECT_EQ(values[1].bytes, R"({"_ARRAY_DIMENSIONS":["n"]})");
    EXPECT_EQ(values[2].kind, Kind::kAbsent);
    EXPECT_EQ(values[3].kind, Kind::kAbsent);  // outside the grid
    for (int i = 0; i < kChunks; ++i) {
      const FetchedValue& v = values[4 + i];
      if (i == kUnwritten) {
        EXPECT_EQ(v.kind, Kind::kAbsent);
      } else {
        EXPECT_EQ(v.kind, Kind::kBytes) << "x/" << i;
        EXPECT_EQ(v.bytes, i == kInline ? kInlineBytes : ChunkBytes(i)) << "x/" << i;
      }
    }
  }

  testing::TempDir dir_;
  std::string data_path_ = dir_ / "data.bin";
  std::string plain_path_ = dir_ / "refs.json";
  std::string packed_path_ = dir_ / "refs.packed.json";
  std::string packed_text_;
};

TEST_F(StoreReaderTest, PackedAndPlainIndexesServeTheSameValues) {
  auto packed = StoreReader::Open(packed_path_);
  ASSERT_TRUE(packed.ok()) << packed.status().message();
  EXPECT_TRUE(packed->packed());
  ExpectTheValues(*packed);
  auto plain = StoreReader::Open(plain_path_);
  ASSERT_TRUE(plain.ok()) << plain.status().message();
  EXPECT_FALSE(plain->packed());
  ExpectTheValues(*plain);
  EXPECT_EQ(packed->key_count(), plain->key_count());
  auto parsed = StoreReader::Parse(packed_text_, "memory");
  ASSERT_TRUE(parsed.ok()) << parsed.status().message();
  ExpectTheValues(*parsed);
}

TEST_F(StoreReaderTest, EntryKeysListNoChunks) {
  for (const auto& path : {packed_path_, plain_path_}) {
    auto reader = StoreReader::Open(path);
    ASSERT_TRUE(reader.ok());
    // The inline chunk x/7 is a chunk of the grid, not an entry.
    EXPECT_EQ(reader->EntryKeys(), (std::vector<std::string>{".zgroup", "x/.zarray", "x/.zattrs"}))
        << path;
  }
}

TEST_F(StoreReaderTest, ContainsResolvesWithoutReading) {
  auto reader = StoreReader::Open(packed_path_);
  ASSERT_TRUE(reader.ok());
  fs::remove(data_path_);  // nothing is read
  EXPECT_TRUE(*reader->Contains("x/0"));
  EXPECT_TRUE(*reader->Contains("x/.zarray"));
  EXPECT_FALSE(*reader->Contains("x/5"));
  EXPECT_FALSE(*reader->Contains("y/0"));
}

TEST_F(StoreReaderTest, NonLocalUrlsComeBackAsRangesAfterRewriting) {
  StoreOptions options;
  options.rewrites.push_back({dir_.path().string(), "s3://bucket/run"});
  auto reader = StoreReader::Open(packed_path_, options);
  ASSERT_TRUE(reader.ok());
  auto values = Get(*reader, {"x/3", "x/7", "x/5"});
  EXPECT_EQ(values[0].kind, Kind::kRemote);
  EXPECT_EQ(values[0].url, "s3://bucket/run/data.bin");
  EXPECT_EQ(values[0].offset, 6u);
  EXPECT_EQ(values[0].length, std::optional<uint64_t>(2));
  EXPECT_EQ(values[1].kind, Kind::kBytes);  // inline: no URL
  EXPECT_EQ(values[2].kind, Kind::kAbsent);
}

TEST_F(StoreReaderTest, RewritingToAnotherLocalCopyAndFileUrls) {
  fs::create_directory(dir_ / "copy");
  fs::rename(data_path_, dir_ / "copy/data.bin");
  StoreOptions options;
  options.rewrites.push_back({dir_.path().string(), "file://" + (dir_ / "copy")});
  auto reader = StoreReader::Open(plain_path_, options);
  ASSERT_TRUE(reader.ok());
  ExpectTheValues(*reader);
}

TEST_F(StoreReaderTest, RangePastTheEndOfItsFileNamesKeyAndUrl) {
  fs::resize_file(data_path_, 100);
  auto reader = StoreReader::Open(packed_path_);
  ASSERT_TRUE(reader.ok());
  auto values = reader->GetMany(std::vector<std::string>{"x/1", "x/60"});
  ASSERT_FALSE(values.ok());
  EXPECT_EQ(values.status().code(), StatusCode::kDataLoss);
  EXPECT_EQ(values.status().message(),
            "key x/60: bytes [120, 122) of " + data_path_ + " are past its end (100 bytes)");
}

TEST_F(StoreReaderTest, MissingDataFileIsNotFoundNamingKeyAndUrl) {
  fs::remove(data_path_);
  auto reader = StoreReader::Open(plain_path_);
  ASSERT_TRUE(reader.ok());
  auto values = reader->GetMany(std::vector<std::string>{"x/2"});
  ASSERT_FALSE(values.ok());
  EXPECT_EQ(values.status().code(), StatusCode::kNotFound);
  EXPECT_EQ(values.status().message(),
            "key x/2: " + data_path_ + ": cannot open: No such file or directory");
}

TEST_F(StoreReaderTest, MissingIndexIsNotFound) {
  auto reader = StoreReader::Open(dir_ / "absent.packed.json");
  ASSERT_FALSE(reader.ok());
  EXPECT_EQ(reader.status().code(), StatusCode::kNotFound);
  EXPECT_NE(reader.status().message().find("absent.packed.json"), std::string::npos);
}

TEST_F(StoreReaderTest, TruncatedPackedFileIsAnErrorNamingTheFile) {
  for (size_t size : {size_t{40}, packed_text_.size() / 2, packed_text_.size() - 2}) {
    ASSERT_TRUE(WriteFileAtomically(packed_path_, packed_text_.substr(0, size)).ok());
    auto reader = StoreReader::Open(packed_path_);
    ASSERT_FALSE(reader.ok()) << size;
    EXPECT_EQ(reader.status().code(), StatusCode::kInvalidArgument) << size;
    EXPECT_TRUE(reader.status().message().starts_with(packed_path_)) << reader.status().message();
  }
}

TEST_F(StoreReaderTest, NewerFormatVersionIsUnsupported) {
  std::string text = packed_text_;
  auto at = text.find("\"format_version\":1");
  ASSERT_NE(at, std::string::npos);
  text.replace(at, 18, "\"format_version\":9");
  ASSERT_TRUE(WriteFileAtomically(packed_path_, text).ok());
  auto reader = StoreReader::Open(packed_path_);
  ASSERT_FALSE(reader.ok());
  EXPECT_EQ(reader.status().code(), StatusCode::kUnsupported);
  EXPECT_NE(reader.status().message().find("packed format version 9 is newer"), std::string::npos)
      << reader.status().message();
}

TEST_F(StoreReaderTest, CorruptPlainJsonIsInvalidArgument) {
  ASSERT_TRUE(WriteFileAtomically(plain_path_, R"({"version":1,"refs":{"x/0":["a",1]}})").ok());
  auto reader = StoreReader::Open(plain_path_);
  ASSERT_FALSE(reader.ok());
  EXPECT_EQ(reader.status().code(), StatusCode::kInvalidArgument);
  EXPECT_TRUE(reader.status().message().starts_with(plain_path_)) << reader.status().message();
}

TEST(LocalPathTest, PlainPathsAndFileUrlsAreLocal) {
  EXPECT_EQ(LocalPath("/data/a.nc"), std::optional<std::string>("/data/a.nc"));
  EXPECT_EQ(LocalPath("rel/a.nc"), std::optional<std::string>("rel/a.nc"));
  EXPECT_EQ(LocalPath("file:///data/a.nc"), std::optional<std::string>("/data/a.nc"));
  EXPECT_EQ(LocalPath("s3://bucket/a.nc"), std::nullopt);
  EXPECT_EQ(LocalPath("memory://a.nc"), std::nullopt);
}

}  // namespace
}  // namespace kerchunk::python
