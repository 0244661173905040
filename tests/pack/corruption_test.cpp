// Packed files that are truncated, of another version, or whose columns disagree: each gives a
// one-line error with the right code, never a crash, and never a wrong full expansion.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <functional>
#include <random>

#include "kerchunk/bench/synthetic_refs.h"
#include "kerchunk/json/json_value.h"
#include "kerchunk/util/base64.h"
#include "pack_testing.h"

namespace kerchunk::pack {
namespace {

using ::testing::AnyOf;
using ::testing::HasSubstr;
using ::testing::Not;

ReferenceSet SmallSet() {
  SyntheticRefsOptions o;
  o.files = 2;
  o.steps_per_file = 3;
  o.spatial_shape = {40, 80};
  o.spatial_chunks = {20, 20};
  return SyntheticReferenceSet(o);
}

const std::string& Binary() {
  static const std::string text = testing::PackText(SmallSet(), {.checkpoint_interval = 8});
  return text;
}

const std::string& Readable() {
  static const std::string text =
      testing::PackText(SmallSet(), {.checkpoint_interval = 8, .readable = true});
  return text;
}

// The packed text after `edit` changed its JSON.
std::string Edit(const std::string& packed, const std::function<void(json::Value&)>& edit) {
  auto doc = json::Value::Parse(packed);
  EXPECT_TRUE(doc.ok());
  edit(*doc);
  return doc->Dump();
}

// The generator of the data variables (the 2 time references stay plain Kerchunk entries:
// that is smaller than a generator).
json::Value& Generator(json::Value& doc) { return doc.Find("generators")->as_array().at(0); }

Status ParseError(const std::string& text) {
  auto index = PackedIndex::Parse(text);
  return index.ok() ? OkStatus() : index.status();
}

TEST(PackedCorruptionTest, ValidFilesParse) {
  ASSERT_TRUE(ParseError(Binary()).ok()) << ParseError(Binary()).message();
  ASSERT_TRUE(ParseError(Readable()).ok()) << ParseError(Readable()).message();
  auto doc = json::Value::Parse(Binary());
  ASSERT_EQ(doc->Find("generators")->as_array().size(), 1u);
}

TEST(PackedCorruptionTest, Truncated) {
  for (const std::string* text : {&Binary(), &Readable()}) {
    for (size_t cut = 0; cut + 2 < text->size(); cut += 1 + cut / 40) {
      Status s = ParseError(text->substr(0, cut));
      ASSERT_FALSE(s.ok()) << "cut at " << cut;
      EXPECT_THAT(s.code(), AnyOf(StatusCode::kInvalidArgument, StatusCode::kDataLoss)) << cut;
      EXPECT_THAT(s.message(), Not(HasSubstr("\n")));
    }
  }
  EXPECT_THAT(ParseError(Binary().substr(0, Binary().size() / 2)).message(),
              HasSubstr("malformed packed file"));
}

TEST(PackedCorruptionTest, NotAPackedFile) {
  Status s = ParseError(R"({"version":1,"refs":{".zgroup":"{\"zarr_format\":2}"}})");
  EXPECT_EQ(s.code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(s.message(), HasSubstr("not a packed Kerchunk file"));
  EXPECT_EQ(ParseError("[1,2]").code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(ParseError("{\"format\": ").message(), HasSubstr("malformed packed file"));
  EXPECT_THAT(ParseError(Binary() + "x").message(), HasSubstr("malformed packed file"));
  EXPECT_THAT(ParseError(Binary() + "{}").message(), HasSubstr("malformed packed file"));
}

TEST(PackedCorruptionTest, BadVersion) {
  Status newer = ParseError(
      Edit(Binary(), [](json::Value& d) { d.Set("format_version", json::Value::Int(4)); }));
  EXPECT_EQ(newer.code(), StatusCode::kUnsupported);
  EXPECT_EQ(newer.message(),
            "packed format version 4 is newer than this kerchunk reads (up to 3); upgrade "
            "kerchunk");
  // A newer version is reported even when its fields are unknown to this one.
  Status newer_fields = ParseError(Edit(Binary(), [](json::Value& d) {
    d.Set("format_version", json::Value::Int(7));
    d.Erase("generators");
  }));
  EXPECT_EQ(newer_fields.code(), StatusCode::kUnsupported);
  Status zero = ParseError(
      Edit(Binary(), [](json::Value& d) { d.Set("format_version", json::Value::Int(0)); }));
  EXPECT_EQ(zero.code(), StatusCode::kDataLoss);
  Status other = ParseError(
      Edit(Binary(), [](json::Value& d) { d.Set("format", json::Value::String("zip")); }));
  EXPECT_EQ(other.code(), StatusCode::kInvalidArgument);
}

TEST(PackedCorruptionTest, BadChecksum) {
  std::string text = Edit(Binary(), [](json::Value& d) {
    std::string c = d.Find("checksum")->as_string();
    c.back() = c.back() == '0' ? '1' : '0';
    d.Set("checksum", json::Value::String(c));
  });
  auto index = PackedIndex::Parse(text);
  ASSERT_TRUE(index.ok()) << index.status().message();  // lookups cannot see it
  auto all = index->UnpackAll();
  ASSERT_FALSE(all.ok());
  EXPECT_EQ(all.status().code(), StatusCode::kDataLoss);
  EXPECT_THAT(all.status().message(), HasSubstr("checksum mismatch"));

  Status count = ParseError(Edit(Binary(), [](json::Value& d) {
    auto digest = ReferenceDigest::Parse(d.Find("checksum")->as_string());
    digest->keys += 1;
    d.Set("checksum", json::Value::String(digest->ToString()));
  }));
  EXPECT_EQ(count.code(), StatusCode::kDataLoss);
  EXPECT_THAT(count.message(), HasSubstr("the checksum counts"));
  Status garbled = ParseError(
      Edit(Binary(), [](json::Value& d) { d.Set("checksum", json::Value::String("md5:x")); }));
  EXPECT_EQ(garbled.code(), StatusCode::kDataLoss);
  EXPECT_THAT(garbled.message(), HasSubstr("\"checksum\": expected a checksum"));
}

// Files written with the first checksum version (kcd1: XXH64 items) stay readable: the
// expansion is checked with the version the file records.
TEST(PackedCorruptionTest, FirstChecksumVersionIsStillVerified) {
  const ReferenceSet refs = SmallSet();
  const std::string kcd1 = DigestReferences(refs, DigestVersion::kKcd1).ToString();
  ASSERT_TRUE(kcd1.starts_with("kcd1:"));
  std::string text = Edit(Binary(), [&](json::Value& d) {
    EXPECT_TRUE(d.Find("checksum")->as_string().starts_with("kcd2:"));
    d.Set("checksum", json::Value::String(kcd1));
  });
  auto index = PackedIndex::Parse(text);
  ASSERT_TRUE(index.ok()) << index.status().message();
  auto all = index->UnpackAll();
  ASSERT_TRUE(all.ok()) << all.status().message();
  EXPECT_EQ(DigestReferences(*all), DigestReferences(refs));

  std::string wrong = kcd1;
  wrong.back() = wrong.back() == '0' ? '1' : '0';
  auto mismatch = PackedIndex::Parse(
      Edit(Binary(), [&](json::Value& d) { d.Set("checksum", json::Value::String(wrong)); }));
  ASSERT_TRUE(mismatch.ok());
  EXPECT_THAT(mismatch->UnpackAll().status().message(), HasSubstr("checksum mismatch"));
}

TEST(PackedCorruptionTest, IdsOutOfRange) {
  Status s = ParseError(Edit(Readable(), [](json::Value& d) {
    Generator(d).Find("files")->Find("url")->as_array().back() = json::Value::Int(99);
  }));
  EXPECT_EQ(s.code(), StatusCode::kDataLoss);
  EXPECT_THAT(s.message(), HasSubstr("\"files.url\": entry 1 is URL 99, but the file lists 2"));
  EXPECT_THAT(s.message(), HasSubstr("generator 0 (t2m)"));
  Status gap = ParseError(Edit(Readable(), [](json::Value& d) {
    *Generator(d).Find("gaps")->Find("index") = json::Value::MakeArray({json::Value::Int(1000000)});
    *Generator(d).Find("gaps")->Find("value") = json::Value::MakeArray({json::Value::Int(5)});
  }));
  EXPECT_THAT(gap.message(), HasSubstr("\"gaps.index\": entry 0 (1000000) is out of range"));
}

TEST(PackedCorruptionTest, Unsorted) {
  Status s = ParseError(Edit(Readable(), [](json::Value& d) {
    auto& index = Generator(d).Find("files")->Find("index")->as_array();
    index.push_back(json::Value::Int(0));
    Generator(d).Find("files")->Find("url")->as_array().push_back(json::Value::Int(0));
  }));
  EXPECT_EQ(s.code(), StatusCode::kDataLoss);
  EXPECT_THAT(s.message(), HasSubstr("is less than the one before"));
  Status equal = ParseError(Edit(Readable(), [](json::Value& d) {
    auto& index = Generator(d).Find("files")->Find("index")->as_array();
    index.push_back(index.back());
    Generator(d).Find("files")->Find("url")->as_array().push_back(json::Value::Int(0));
  }));
  EXPECT_THAT(equal.message(), HasSubstr("is not greater than the one before"));
}

TEST(PackedCorruptionTest, NegativeLengths) {
  Status s = ParseError(Edit(Readable(), [](json::Value& d) {
    Generator(d).Find("lengths")->Find("values")->as_array()[3] = json::Value::Int(-5);
  }));
  EXPECT_EQ(s.code(), StatusCode::kDataLoss);
  EXPECT_THAT(s.message(), HasSubstr("\"lengths.values\": expected a list of non-negative"));
}

TEST(PackedCorruptionTest, CountsThatDoNotAddUp) {
  Status refs = ParseError(Edit(Binary(), [](json::Value& d) {
    json::Value& g = Generator(d);
    g.Set("references", json::Value::Int(g.Find("references")->as_int() + 1));
  }));
  EXPECT_EQ(refs.code(), StatusCode::kDataLoss);
  EXPECT_THAT(refs.message(), HasSubstr("slots present but \"references\" is"));
  Status ends = ParseError(
      Edit(Readable(), [](json::Value& d) { Generator(d).Find("ends")->as_array().pop_back(); }));
  EXPECT_THAT(ends.message(), HasSubstr("\"ends\" has"));
  Status defaults = ParseError(Edit(Readable(), [](json::Value& d) {
    Generator(d).Find("gaps")->Find("default")->as_array().pop_back();
  }));
  EXPECT_THAT(defaults.message(), HasSubstr("\"gaps.default\" has 2 values for 3 variables"));
  Status lengths = ParseError(Edit(Readable(), [](json::Value& d) {
    Generator(d).Find("lengths")->Find("values")->as_array().pop_back();
  }));
  EXPECT_THAT(lengths.message(), HasSubstr("\"lengths.values\" has"));
  Status bits = ParseError(Edit(Binary(), [](json::Value& d) {
    json::Value& l = *Generator(d).Find("lengths");
    l.Set("bits", json::Value::Int(l.Find("bits")->as_int() + 9));
  }));
  EXPECT_THAT(bits.message(), HasSubstr("\"lengths.data\" holds"));
}

TEST(PackedCorruptionTest, HugeClaimedSizes) {
  // 10^12 chunks, all claimed present: no allocation follows the claim.
  Status s = ParseError(Edit(Readable(), [](json::Value& d) {
    json::Value& g = Generator(d);
    g.Set("chunk_grid", json::Value::MakeArray({json::Value::Int(1000000000000)}));
    g.Set("references", json::Value::Int(1000000000000));
    g.Set("presence",
          json::Value::MakeArray({json::Value::Int(0), json::Value::Int(1000000000000)}));
  }));
  EXPECT_EQ(s.code(), StatusCode::kDataLoss);
  EXPECT_THAT(s.message(), HasSubstr("checkpoints, expected 125000000000"));
  Status product = ParseError(Edit(Readable(), [](json::Value& d) {
    json::Value big = json::Value::Int(1000000000000);
    Generator(d).Set("chunk_grid", json::Value::MakeArray({big, big}));
  }));
  EXPECT_THAT(product.message(), HasSubstr("more than 2^64 chunks"));
  Status runs = ParseError(Edit(Readable(), [](json::Value& d) {
    Generator(d).Set("presence",
                     json::Value::MakeArray({json::Value::Int(0), json::Value::Int(1000000000)}));
  }));
  EXPECT_THAT(runs.message(), HasSubstr("runs cover more than the"));
  // A legitimate but enormous expansion is refused before allocating.
  auto index = PackedIndex::Parse(Binary());
  auto all = index->UnpackAll({.max_references = 10});
  EXPECT_EQ(all.status().code(), StatusCode::kUnsupported);
  EXPECT_THAT(all.status().message(), HasSubstr("more than the limit of 10"));
}

TEST(PackedCorruptionTest, GeneratorsThatDoNotMatchTheDocument) {
  Status unknown = ParseError(Edit(Binary(), [](json::Value& d) {
    Generator(d).Find("variables")->as_array()[0] = json::Value::String("nope");
  }));
  EXPECT_THAT(unknown.message(), HasSubstr("variable \"nope\" has no .zarray"));
  Status twice = ParseError(Edit(Binary(), [](json::Value& d) {
    Generator(d).Find("variables")->as_array()[1] = json::Value::String("t2m");
  }));
  EXPECT_THAT(twice.message(), HasSubstr("variable \"t2m\" appears in more than one place"));
  Status grid = ParseError(Edit(Binary(), [](json::Value& d) {
    Generator(d).Find("chunk_grid")->as_array()[0] = json::Value::Int(7);
  }));
  EXPECT_THAT(grid.message(), HasSubstr("does not match its .zarray"));
  // (The readable form keeps the embedded document as plain JSON.)
  Status duplicate = ParseError(Edit(Readable(), [](json::Value& d) {
    json::Value& refs = *d.Find("kerchunk")->Find("refs");
    refs.Set("t2m/0.0.0", json::Value::MakeArray({json::Value::String("x.nc"), json::Value::Int(1),
                                                  json::Value::Int(2)}));
  }));
  EXPECT_THAT(duplicate.message(), HasSubstr("key \"t2m/0.0.0\" is both in the document and"));
}

TEST(PackedCorruptionTest, MalformedFields) {
  auto with = [](const char* field, json::Value v) {
    return ParseError(Edit(Binary(), [&](json::Value& d) { Generator(d).Set(field, v); }));
  };
  EXPECT_THAT(with("interleave", json::Value::Int(0)).message(), HasSubstr("\"interleave\" 0"));
  EXPECT_THAT(with("checkpoint_interval", json::Value::Int(0)).message(),
              HasSubstr("\"checkpoint_interval\" must be in 1..65536"));
  EXPECT_THAT(with("references", json::Value::String("9")).message(),
              HasSubstr("\"references\": expected a non-negative integer"));
  EXPECT_THAT(with("presence", json::Value::String("AA==")).message(),
              HasSubstr("\"presence\": expected a list or an object"));
  Status missing = ParseError(Edit(Binary(), [](json::Value& d) { Generator(d).Erase("ends"); }));
  EXPECT_EQ(missing.code(), StatusCode::kDataLoss);
  EXPECT_THAT(missing.message(), HasSubstr("missing field \"ends\""));
  Status predictor = ParseError(Edit(Binary(), [](json::Value& d) {
    Generator(d).Find("lengths")->Set("predictor", json::Value::String("magic"));
  }));
  EXPECT_THAT(predictor.message(), HasSubstr("unknown predictor \"magic\""));
  Status base64 = ParseError(Edit(Binary(), [](json::Value& d) {
    Generator(d).Find("lengths")->Set("data", json::Value::String("!!!!"));
  }));
  EXPECT_THAT(base64.message(), HasSubstr("\"lengths.data\": invalid base64"));
  Status encoding = ParseError(Edit(Binary(), [](json::Value& d) {
    json::Value& ends = *Generator(d).Find("ends");
    std::string data = ends.Find("delta-zigzag")->as_string();
    ends = json::Value::MakeObject();
    ends.Set("varint", json::Value::String(data));
  }));
  EXPECT_THAT(encoding.message(), HasSubstr("column \"ends\": expected encoding \"delta-zigzag\""));
}

// Flipping any byte of the length stream never expands to wrong references: either a block
// decodes inconsistently, a checkpoint disagrees, or the checksum does.
TEST(PackedCorruptionTest, FlippedLengthBitsNeverExpandSilently) {
  auto doc = json::Value::Parse(Binary());
  const json::Value& lengths = *Generator(*doc).Find("lengths");
  auto data = Base64Decode(lengths.Find("data")->as_string());
  ASSERT_TRUE(data.ok());
  std::mt19937_64 rng(1);
  for (size_t i = 0; i < data->size(); i += 1 + i / 50) {
    std::string corrupt = *data;
    corrupt[i] = static_cast<char>(corrupt[i] ^ (1 << (rng() % 8)));
    std::string text = Edit(Binary(), [&](json::Value& d) {
      Generator(d).Find("lengths")->Set("data", json::Value::String(Base64Encode(corrupt)));
    });
    auto index = PackedIndex::Parse(text);
    if (!index.ok()) continue;
    (void)index->Resolve("t2m/1.1.1");  // may be wrong, must not crash
    auto all = index->UnpackAll();
    ASSERT_FALSE(all.ok()) << "byte " << i;
    EXPECT_EQ(all.status().code(), StatusCode::kDataLoss);
  }
}

TEST(PackedCorruptionTest, BadRiceParameter) {
  Status s = ParseError(Edit(Binary(), [](json::Value& d) {
    json::Value& l = *Generator(d).Find("lengths");
    auto params = Base64Decode(l.Find("parameters")->Find("varint")->as_string());
    std::string p = *params;
    p[0] = 77;
    json::Value column = json::Value::MakeObject();
    column.Set("varint", json::Value::String(Base64Encode(p)));
    l.Set("parameters", column);
  }));
  EXPECT_EQ(s.code(), StatusCode::kDataLoss);
  EXPECT_THAT(s.message(), HasSubstr("block 0 has parameter 77"));
}

}  // namespace
}  // namespace kerchunk::pack
