// Inline chunk values in the packed format: "base64:" values of an array stored as bytes, each
// distinct value once (round trip, lookups, deduplication, validation of hostile columns), and
// the compact container around the packed JSON (round trip, damaged frames).
#include <fmt/format.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <zstd.h>

#include <random>

#include "kerchunk/json/json_value.h"
#include "pack/packed_container.h"
#include "pack_testing.h"

namespace kerchunk::pack {
namespace {

using testing::AddArray;
using testing::ExpectRoundTrip;
using ::testing::HasSubstr;
using ::testing::StartsWith;

// Three arrays: "b" of random binary values (some empty, a third repeated from a small pool),
// "t" of plain-text values, "m" mixing inline values with byte ranges.
ReferenceSet InlineSet(uint32_t seed) {
  std::mt19937_64 random(seed);
  ReferenceSet refs;
  const uint32_t url = refs.urls.Intern("s3://bucket/file.nc");
  std::vector<std::string> pool;
  for (int i = 0; i < 5; ++i) pool.push_back(std::string(40 + i, static_cast<char>('a' + i)));
  ArrayRefs& b = refs.arrays[AddArray(refs, "b", {300}, {1})];
  for (uint64_t c = 0; c < 300; ++c) {
    if (random() % 10 == 0) continue;  // unwritten
    std::string value;
    if (random() % 3 == 0) {
      value = pool[random() % pool.size()];
    } else {
      value.resize(random() % 5 == 0 ? 0 : random() % 300);
      for (char& ch : value) ch = static_cast<char>(random());
    }
    b.AddInline(c, value, true);
  }
  ArrayRefs& t = refs.arrays[AddArray(refs, "g/t", {20, 4}, {1, 4})];
  for (uint64_t c = 0; c < 20; ++c)
    t.AddInline(c, fmt::format("[[\"2014-04-{:02}\",\"60\"]]", c), false);
  ArrayRefs& m = refs.arrays[AddArray(refs, "m", {100}, {1})];
  for (uint64_t c = 0; c < 100; ++c) {
    if (c % 4 == 0) {
      m.AddInline(c, std::string(16, static_cast<char>(c)), true);
    } else {
      m.AddRange(c, url, 1000 + 50 * c, 50);
    }
  }
  EXPECT_TRUE(refs.Finalize().ok());
  return refs;
}

void ExpectEveryInlineKeyResolves(const ReferenceSet& refs, const std::string& packed) {
  auto index = PackedIndex::Parse(packed);
  ASSERT_TRUE(index.ok()) << index.status().message();
  for (const ArrayRefs& a : refs.arrays) {
    for (size_t i = 0; i < a.size(); ++i) {
      const ChunkRef c = a.Get(i);
      if (c.kind != RefKind::kInline) continue;
      const std::string key = a.KeyPrefix() + a.grid().Key(a.chunk_index(i));
      auto v = index->Resolve(key);
      ASSERT_TRUE(v.ok() && v->has_value()) << key;
      EXPECT_EQ((*v)->data, c.data) << key;
      EXPECT_EQ((*v)->kind, c.base64 ? EntryValue::Kind::kBase64 : EntryValue::Kind::kText) << key;
    }
  }
  // An unwritten chunk of an inline array has no value.
  auto missing = index->Resolve("b/299");
  ASSERT_TRUE(missing.ok());
}

json::Value Document(const std::string& packed) {
  auto doc = json::Value::Parse(packed);
  EXPECT_TRUE(doc.ok()) << packed.substr(0, 300);
  return doc.ok() ? *doc : json::Value::MakeObject();
}

TEST(InlineValuesTest, RoundTripAndEveryKeyResolves) {
  for (uint32_t seed = 1; seed <= 20; ++seed) {
    const ReferenceSet refs = InlineSet(seed);
    for (bool readable : {false, true}) {
      const std::string text =
          ExpectRoundTrip(refs, {.checkpoint_interval = 8, .readable = readable});
      ExpectEveryInlineKeyResolves(refs, text);
      // The compact container around it reads the same.
      const std::string compact = internal::WrapContainer(text);
      ExpectEveryInlineKeyResolves(refs, compact);
      auto index = PackedIndex::Parse(compact);
      ASSERT_TRUE(index.ok());
      auto unpacked = index->UnpackAll();
      ASSERT_TRUE(unpacked.ok()) << unpacked.status().message();
      EXPECT_EQ(DigestReferences(*unpacked), DigestReferences(refs));
    }
    // What kerchunk pack writes: the binary container, inline data in its blob section.
    const std::string binary = ExpectRoundTrip(refs, {.checkpoint_interval = 8, .binary = true});
    ASSERT_TRUE(binary.starts_with(internal::kBinaryContainerMagic));
    ExpectEveryInlineKeyResolves(refs, binary);
  }
}

TEST(InlineValuesTest, BinaryValuesMoveTextValuesStay) {
  const json::Value doc = Document(testing::PackText(InlineSet(3), {.readable = true}));
  const json::Value* inline_values = doc.Find("inline");
  ASSERT_TRUE(inline_values && inline_values->is_array());
  std::vector<std::string> moved;
  for (const json::Value& v : inline_values->as_array())
    moved.push_back(v.Find("variable")->as_string());
  EXPECT_EQ(moved, (std::vector<std::string>{"b", "m"}));
  const json::Value* refs = doc.Find("kerchunk")->Find("refs");
  EXPECT_NE(refs->Find("g/t/3.0"), nullptr);  // text, kept as itself
  EXPECT_EQ(refs->Find("b/0"), nullptr);
  EXPECT_EQ(doc.Find("format_version")->as_int(), 2);
}

TEST(InlineValuesTest, RepeatedValuesAreStoredOnce) {
  ReferenceSet refs;
  ArrayRefs& a = refs.arrays[AddArray(refs, "fill", {1000}, {1})];
  const std::string fill(100, '\x7f');
  for (uint64_t c = 0; c < 1000; ++c)
    a.AddInline(c, c == 500 ? std::string(100, '\x01') : fill, true);
  ASSERT_TRUE(refs.Finalize().ok());
  const std::string text = ExpectRoundTrip(refs, {.readable = true});
  const json::Value doc = Document(text);
  const json::Value& values = doc.Find("inline")->as_array().at(0);
  EXPECT_EQ(values.Find("lengths")->as_array().size(), 2u);
  EXPECT_EQ(values.Find("values")->as_int(), 1000);
  // 1000 values of 100 bytes: as Kerchunk JSON ~150 KB of base64; here two values and columns.
  EXPECT_LT(text.size(), 8000u);
}

TEST(InlineValuesTest, AFewSmallValuesStayVerbatim) {
  ReferenceSet refs;
  ArrayRefs& a = refs.arrays[AddArray(refs, "time", {2}, {2})];
  a.AddInline(0, std::string(16, '\0'), true);
  ASSERT_TRUE(refs.Finalize().ok());
  const json::Value doc = Document(ExpectRoundTrip(refs, {.readable = true}));
  EXPECT_EQ(doc.Find("inline"), nullptr);
  EXPECT_EQ(doc.Find("format_version")->as_int(), 1);  // readable by version-1 readers
}

Status ParseError(const std::string& text) {
  auto index = PackedIndex::Parse(text);
  return index.ok() ? OkStatus() : index.status();
}

// The readable packed text of InlineSet with `edit` applied to the inline object of "b".
std::string EditInline(const std::function<void(json::Value&)>& edit) {
  json::Value doc = Document(testing::PackText(InlineSet(5), {.readable = true}));
  edit(doc.Find("inline")->as_array().at(0));
  return doc.Dump();
}

TEST(InlineValuesTest, DamagedColumnsAreOneLineErrorsNamingTheArray) {
  auto error = [](const std::function<void(json::Value&)>& edit) {
    Status s = ParseError(EditInline(edit));
    EXPECT_EQ(s.code(), StatusCode::kDataLoss) << s.message();
    EXPECT_THAT(s.message(), Not(HasSubstr("\n")));
    return s.message();
  };
  EXPECT_THAT(
      error([](json::Value& v) { v.Find("ids")->as_array()[3] = json::Value::Int(100000); }),
      HasSubstr("inline values 0 (b): \"ids\": value 100000 is not below"));
  EXPECT_THAT(
      error([](json::Value& v) { v.Find("lengths")->as_array()[0] = json::Value::Int(1 << 30); }),
      HasSubstr("\"lengths\": the values need more than the"));
  EXPECT_THAT(error([](json::Value& v) { v.Find("chunks")->as_array()[1] = json::Value::Int(0); }),
              HasSubstr("\"chunks\": not strictly increasing"));
  EXPECT_THAT(error([](json::Value& v) { v.Set("values", json::Value::Int(7)); }),
              HasSubstr("\"values\" is 7, but \"chunks\" has"));
  EXPECT_THAT(error([](json::Value& v) { v.Set("variable", json::Value::String("nope")); }),
              HasSubstr("variable \"nope\" has no .zarray"));
  EXPECT_THAT(error([](json::Value& v) {
                auto& chunks = v.Find("chunks")->as_array();
                chunks.back() = json::Value::Int(5000);
              }),
              HasSubstr("chunk 5000 is outside the grid of \"b\""));
  EXPECT_THAT(error([](json::Value& v) { v.Set("data", json::Value::String("!!")); }),
              HasSubstr("\"inline.data\""));
  // The same key from the document and from the inline values.
  json::Value doc = Document(testing::PackText(InlineSet(5), {.readable = true}));
  const json::Value& first = doc.Find("inline")->as_array().at(0);
  const uint64_t chunk = first.Find("chunks")->as_array().at(0).as_uint();
  doc.Find("kerchunk")
      ->Find("refs")
      ->Set(fmt::format("b/{}", chunk), json::Value::String("base64:AA=="));
  EXPECT_THAT(
      ParseError(doc.Dump()).message(),
      HasSubstr(fmt::format("key \"b/{}\" is both in the document and in inline values 0", chunk)));
}

TEST(PackedContainerTest, DamagedFramesAreRefused) {
  const std::string text = testing::PackText(InlineSet(7));
  const std::string compact = internal::WrapContainer(text);
  ASSERT_TRUE(LooksPacked(compact));
  EXPECT_LT(compact.size(), text.size());
  auto unwrapped = internal::UnwrapContainer(compact);
  ASSERT_TRUE(unwrapped.ok());
  EXPECT_EQ(unwrapped->text, text);
  for (size_t cut : {size_t{4}, size_t{6}, compact.size() / 2, compact.size() - 1}) {
    Status s = ParseError(compact.substr(0, cut));
    EXPECT_EQ(s.code(), StatusCode::kDataLoss) << cut << ": " << s.message();
    EXPECT_THAT(s.message(), StartsWith("packed container: ")) << cut;
  }
  // Flipped bits anywhere in the frame: an error, or a file that still decodes; what it then
  // expands to must be exactly the original (the packed checksum covers every reference; only
  // informative fields such as "stats" may change unnoticed). Never a crash.
  const ReferenceDigest original = DigestReferences(InlineSet(7));
  std::mt19937_64 random(1);
  for (int trial = 0; trial < 300; ++trial) {
    std::string damaged = compact;
    damaged[4 + random() % (damaged.size() - 4)] ^= static_cast<char>(1 << (random() % 8));
    auto index = PackedIndex::Parse(damaged);
    if (!index.ok()) continue;
    auto unpacked = index->UnpackAll();
    if (unpacked.ok()) {
      EXPECT_EQ(DigestReferences(*unpacked), original) << trial;
    }
  }
}

// One zstd frame of `bytes` (level 1, content size recorded).
std::string ZstdFrame(std::string_view bytes) {
  std::string out(ZSTD_compressBound(bytes.size()), '\0');
  out.resize(ZSTD_compress(out.data(), out.size(), bytes.data(), bytes.size(), 1));
  return out;
}

// A binary container whose blob section is stored raw (the test can then damage it byte by
// byte): the JSON frame of `text` and `blobs` as they are.
std::string RawBinaryContainer(std::string_view text, std::string_view blobs) {
  std::string out = internal::WrapContainer(text);
  out.replace(0, 4, internal::kBinaryContainerMagic);
  internal::AppendBlobSection(internal::BlobCoding::kRaw, blobs, out);
  return out;
}

TEST(BinaryContainerTest, BothBlobCodingsRead) {
  auto packed = Pack(InlineSet(3), {.binary = true});
  ASSERT_TRUE(packed.ok());
  ASSERT_FALSE(packed->blobs.empty());
  const ReferenceDigest original = DigestReferences(InlineSet(3));
  for (const std::string& file :
       {CompactPackedFile(*packed), RawBinaryContainer(packed->text, packed->blobs)}) {
    ASSERT_TRUE(LooksPacked(file));
    auto index = PackedIndex::Parse(file);
    ASSERT_TRUE(index.ok()) << index.status().message();
    auto unpacked = index->UnpackAll();
    ASSERT_TRUE(unpacked.ok()) << unpacked.status().message();
    EXPECT_EQ(DigestReferences(*unpacked), original);
  }
}

TEST(BinaryContainerTest, DamagedContainersAreRefused) {
  auto packed = Pack(InlineSet(4), {.binary = true});
  ASSERT_TRUE(packed.ok());
  const std::string& text = packed->text;
  const std::string& blobs = packed->blobs;
  // Without its blob section the text is not a file: its "@" strings point nowhere.
  EXPECT_THAT(ParseError(text).message(), HasSubstr("outside a binary container"));
  EXPECT_THAT(ParseError(internal::WrapContainer(text)).message(),
              HasSubstr("outside a binary container"));
  // A blob section shorter than the references into it (but as long as its header says).
  Status cut = ParseError(RawBinaryContainer(text, blobs.substr(0, blobs.size() - 1)));
  EXPECT_EQ(cut.code(), StatusCode::kDataLoss) << cut.message();
  EXPECT_THAT(cut.message(), HasSubstr("beyond the"));
  // No blob section at all, an unknown coding, a damaged zstd section.
  std::string no_section = RawBinaryContainer(text, "");
  no_section.resize(no_section.size() - 9);
  EXPECT_THAT(ParseError(no_section).message(), HasSubstr("blob section is missing"));
  EXPECT_THAT(ParseError(no_section + '\0').message(), HasSubstr("header is cut"));
  std::string unknown = RawBinaryContainer(text, blobs);
  unknown[unknown.size() - blobs.size() - 9] = 7;
  EXPECT_THAT(ParseError(unknown).message(), HasSubstr("unknown blob section coding 7"));
  // Cut short or lengthened, raw or zstd: refused by the container, before any field is read.
  const std::string raw_file = RawBinaryContainer(text, blobs);
  const std::string zstd_file =
      internal::WrapContainer(text).replace(0, 4, internal::kBinaryContainerMagic) + [&] {
        std::string section;
        internal::AppendBlobSection(internal::BlobCoding::kZstd, ZstdFrame(blobs), section);
        return section;
      }();
  ASSERT_TRUE(PackedIndex::Parse(zstd_file).ok());
  for (const std::string& file : {raw_file, zstd_file}) {
    for (const std::string& damaged : {file.substr(0, file.size() - 1), file + "x"}) {
      Status s = ParseError(damaged);
      EXPECT_EQ(s.code(), StatusCode::kDataLoss) << s.message();
      EXPECT_THAT(s.message(), StartsWith("packed container: ")) << s.message();
    }
  }
  // Malformed references, each naming its field.
  std::string bad = text;
  const size_t at = bad.find("\"@");
  ASSERT_NE(at, std::string::npos);
  for (std::string_view replacement : {"\"@x+1", "\"@1+", "\"@99999999999999999999+1"}) {
    std::string damaged = bad;
    damaged.replace(at, damaged.find('"', at + 1) - at, replacement);
    Status s = ParseError(RawBinaryContainer(damaged, blobs));
    EXPECT_EQ(s.code(), StatusCode::kDataLoss) << replacement << ": " << s.message();
    EXPECT_THAT(s.message(), HasSubstr("blob reference")) << replacement;
  }
  // Flipped bits in the blob section: an error, or exactly the original references.
  const ReferenceDigest original = DigestReferences(InlineSet(4));
  std::mt19937_64 random(2);
  const std::string raw = RawBinaryContainer(text, blobs);
  for (int trial = 0; trial < 300; ++trial) {
    std::string damaged = raw;
    damaged[raw.size() - 1 - random() % blobs.size()] ^= static_cast<char>(1 << (random() % 8));
    auto index = PackedIndex::Parse(damaged);
    if (!index.ok()) continue;
    auto unpacked = index->UnpackAll();
    if (unpacked.ok()) {
      EXPECT_EQ(DigestReferences(*unpacked), original) << trial;
    }
  }
}

}  // namespace
}  // namespace kerchunk::pack
