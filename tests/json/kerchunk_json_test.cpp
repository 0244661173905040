#include "kerchunk/json/kerchunk_json.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <random>

#include "kerchunk/json/json_value.h"
#include "kerchunk/util/file_io.h"
#include "support/refs_testing.h"
#include "support/test_env.h"

namespace kerchunk {
namespace {

using ::testing::HasSubstr;
using testing::SameReferences;

std::string Serialize(const ReferenceSet& r, bool templates = false) {
  std::string out;
  SerializeKerchunkJson(r, WriteOptions{.templates = templates}, out);
  return out;
}

TEST(KerchunkJsonTest, ParsesVersion1WithAllValueKinds) {
  auto r = ParseKerchunkJson(R"({"version":1,"refs":{
    ".zgroup":"{\"zarr_format\":2}",
    "x/.zarray":"{\"chunks\":[2],\"compressor\":null,\"dtype\":\"<i4\",\"fill_value\":0,\"filters\":null,\"order\":\"C\",\"shape\":[6],\"zarr_format\":2}",
    "x/0":["f.nc",10,8],
    "x/1":"base64:AQIDBAUGBwg=",
    "x/2":["g.nc"],
    "x/9":["f.nc",0,1],
    "x/01":"text",
    "y/0":"plain",
    "z":{"a":1}}})");
  ASSERT_TRUE(r.ok()) << r.status().message();
  ASSERT_EQ(r->arrays.size(), 1u);
  const ArrayRefs& x = r->arrays[0];
  ASSERT_EQ(x.size(), 3u);
  EXPECT_EQ(x.Get(0).kind, RefKind::kRange);
  EXPECT_EQ(r->urls[x.Get(0).url], "f.nc");
  EXPECT_EQ(x.Get(0).offset, 10u);
  EXPECT_EQ(x.Get(1).kind, RefKind::kInline);
  EXPECT_EQ(x.Get(1).data, "\x01\x02\x03\x04\x05\x06\x07\x08");
  EXPECT_EQ(x.Get(2).kind, RefKind::kWholeFile);
  // outside the grid, non-canonical, no .zarray, not a string or list: kept as entries
  EXPECT_EQ(r->FindEntry("x/9")->value.kind, EntryValue::Kind::kRange);
  EXPECT_EQ(r->FindEntry("x/01")->value.data, "text");
  EXPECT_EQ(r->FindEntry("y/0")->value.data, "plain");
  EXPECT_EQ(r->FindEntry("z")->value.kind, EntryValue::Kind::kJson);
  EXPECT_EQ(r->FindEntry("z")->value.data, R"({"a":1})");
}

TEST(KerchunkJsonTest, ParsesVersion0) {
  auto r = ParseKerchunkJson(R"({".zgroup":"{\"zarr_format\":2}",
    ".zarray":"{\"chunks\":[1,1],\"compressor\":null,\"dtype\":\"<i4\",\"fill_value\":0,\"filters\":null,\"order\":\"C\",\"shape\":[2,2],\"zarr_format\":2}",
    "1.1":["a.nc",4,4]})");
  ASSERT_TRUE(r.ok()) << r.status().message();
  ASSERT_EQ(r->arrays.size(), 1u);
  EXPECT_EQ(r->arrays[0].path(), "");
  EXPECT_EQ(r->arrays[0].chunk_index(0), 3u);
  EXPECT_EQ(r->entries.size(), 2u);
}

// The example of the fsspec reference specification ("gen" and "templates").
TEST(KerchunkJsonTest, ExpandsTemplatesAndGen) {
  auto r = ParseKerchunkJson(R"({
    "version": 1,
    "templates": {"u": "server.domain/path", "f": "{{c}}"},
    "gen": [{"key": "gen_key{{i}}", "url": "http://{{u}}_{{i}}",
             "offset": "{{(i + 90) * 1000}}", "length": "1000",
             "dimensions": {"i": {"stop": 5}}}],
    "refs": {"key0": "data", "key2": ["http://{{u}}/target_url", 10000, 100]}})");
  ASSERT_TRUE(r.ok()) << r.status().message();
  const Entry* k2 = r->FindEntry("key2");
  ASSERT_NE(k2, nullptr);
  EXPECT_EQ(r->urls[k2->value.url], "http://server.domain/path/target_url");
  const Entry* g4 = r->FindEntry("gen_key4");
  ASSERT_NE(g4, nullptr);
  EXPECT_EQ(r->urls[g4->value.url], "http://server.domain/path_4");
  EXPECT_EQ(g4->value.offset, 94000u);
  EXPECT_EQ(g4->value.length, 1000u);
  EXPECT_EQ(r->FindEntry("gen_key5"), nullptr);
}

TEST(KerchunkJsonTest, RejectsBadInput) {
  struct Case {
    const char* json;
    const char* message;
  };
  const Case cases[] = {
      {"[1,2]", "top level is not an object"},
      {"{\"version\":1,\"refs\":{\"a\":[\"f\",-1,3]}}", "refs key \"a\""},
      {"{\"version\":1,\"refs\":{\"a\":[\"f\",1]}}", "refs key \"a\""},
      {"{\"version\":1,\"refs\":{\"a\":[1,2,3]}}", "refs key \"a\""},
      {"{\"version\":1,\"refs\":{\"a\":\"base64:!!\"}}", "refs key \"a\""},
      {"{\"version\":2,\"refs\":{}}", "version 1"},
      {"{\"version\":1,\"templates\":{\"u\":\"x\"},\"refs\":{\"a\":[\"{{nope}}\",1,2]}}",
       "unknown name"},
      {"{\"version\":1,\"refs\":{\"a\":", "malformed"},
      {"{\"version\":1,\"refs\":{\"x/.zarray\":\"{\\\"chunks\\\":[1],\\\"dtype\\\":\\\"<i4\\\","
       "\\\"shape\\\":[2],\\\"zarr_format\\\":2}\",\"x/0\":[\"f\",0,1],\"x/0\":[\"f\",1,1]}}",
       "duplicate chunk key \"x/0\""},
      {"{\"version\":1,\"gen\":[{\"key\":\"k{{i}}\",\"url\":\"u\",\"dimensions\":"
       "{\"i\":{\"stop\":100000},\"j\":{\"stop\":100000}}}],\"refs\":{}}",
       "more than"},
      // Generated keys that are not chunks become entries, which cost far more memory.
      {"{\"version\":1,\"gen\":[{\"key\":\"k{{i}}\",\"url\":\"u\",\"dimensions\":"
       "{\"i\":{\"stop\":1000001}}}],\"refs\":{}}",
       "more than 1000000 of the generated keys are not chunks"},
  };
  for (const auto& c : cases) {
    auto r = ParseKerchunkJson(c.json);
    ASSERT_FALSE(r.ok()) << c.json;
    EXPECT_THAT(r.status().message(), HasSubstr(c.message)) << c.json;
  }
}

// Found by fuzzing (issue 12): simdjson On-Demand matches only brackets when it takes the raw
// text of a value, so a malformed object inside "refs" used to be kept verbatim; pack then wrote
// a file that unpack refused.
TEST(KerchunkJsonTest, RejectsMalformedValuesKeptVerbatim) {
  struct Case {
    std::string json;
    std::string message;
  };
  const Case cases[] = {
      {R"({"version":1,"refs":{"x":"a","y":{"a":{"et/data" 1,"z":2}},"w":"b"}})",
       R"(malformed Kerchunk JSON: key "y": value at byte 33: invalid JSON)"},
      {R"({"version":1,"refs":{"y":{"a":1,}}})", R"(key "y": value at byte 25)"},
      {R"({"version":1,"refs":{"y":[1,2,}}})", R"(key "y")"},
      {R"({"version":1,"refs":{"y":tru}})", R"(key "y")"},
      {R"({"version":1,"refs":{},"extra":{"a":}})", R"(key "extra")"},
      {R"({"version":1,"refs":{},"gen":[{]})", "near byte 33"},
      {R"({"version":1,"refs":{},"gen":[{"a" 1}]})", R"(key "gen")"},
      {R"({"z":{"a" 1}})", R"(key "z")"},
  };
  for (const auto& c : cases) {
    auto r = ParseKerchunkJson(c.json);
    ASSERT_FALSE(r.ok()) << c.json;
    EXPECT_EQ(r.status().code(), StatusCode::kInvalidArgument) << c.json;
    EXPECT_THAT(r.status().message(), HasSubstr(c.message)) << c.json;
  }
  // Valid JSON values of every kind are still kept, NaN inside them included (Python's json
  // writes it).
  auto r = ParseKerchunkJson(
      R"({"version":1,"refs":{"a":{"b":[1,2.5,null,true,{"c":"d"}]},"n":{"v":NaN},"t":true},"x":[]})");
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->FindEntry("a")->value.data, R"({"b":[1,2.5,null,true,{"c":"d"}]})");
  EXPECT_EQ(r->FindEntry("t")->value.data, "true");
}

// Found by fuzzing (issue 12): the template evaluator recursed once per unary minus, so
// "{{" + 200,000 "-" + "i}}" overflowed the stack. Signs are now counted in a loop.
TEST(KerchunkJsonTest, LongTemplateExpressionsNeedNoStack) {
  const std::string signs(200'000, '-');
  for (size_t count : {size_t{199'999}, size_t{200'000}}) {
    std::string key = "k{{" + signs.substr(0, count) + "i}}";
    std::string json = R"({"version":1,"refs":{},"gen":[{"key":")" + key +
                       R"(","url":"u","dimensions":{"i":{"start":3,"stop":4}}}]})";
    auto r = ParseKerchunkJson(json);
    ASSERT_TRUE(r.ok()) << r.status().message().substr(0, 200);
    EXPECT_NE(r->FindEntry(count % 2 ? "k-3" : "k3"), nullptr) << count;
  }
  // Errors quote the start of an expression, not all of it.
  std::string json =
      R"({"version":1,"templates":{"u":"x"},"refs":{"a":["{{)" + signs + R"(nope}}",1,2]}})";
  auto r = ParseKerchunkJson(json);
  ASSERT_FALSE(r.ok());
  EXPECT_THAT(r.status().message(), HasSubstr("unknown name \"nope\""));
  EXPECT_LT(r.status().message().size(), 300u);
  // Parentheses still have their depth limit.
  std::string deep = R"({"version":1,"templates":{"u":"x"},"refs":{"a":["{{)" +
                     std::string(100, '(') + "1" + std::string(100, ')') + R"(}}",1,2]}})";
  auto d = ParseKerchunkJson(deep);
  ASSERT_FALSE(d.ok());
  EXPECT_THAT(d.status().message(), HasSubstr("nesting too deep"));
}

// Found by fuzzing (issue 12): a template whose text holds "{{i}}" renders to a URL holding
// "{{i}}"; written without templates and read again, that URL was rendered a second time and
// refused ("unknown name"). As in fsspec, URLs are rendered only where templates are defined.
TEST(KerchunkJsonTest, UrlsHoldingBracesRoundTrip) {
  auto r = ParseKerchunkJson(R"({"version":1,"templates":{"u":"s3://b/f_{{i}}"},"refs":{
    "a":["{{u}}/x.nc",100,8],"b":["/data/{{literal}}.nc",0,4]}})");
  ASSERT_FALSE(r.ok());  // with templates defined, an unknown name is an error
  r = ParseKerchunkJson(R"({"version":1,"templates":{"u":"s3://b/f_{{i}}"},"refs":{
    "a":["{{u}}/x.nc",100,8]}})");
  ASSERT_TRUE(r.ok()) << r.status().message();
  EXPECT_EQ(r->urls[r->FindEntry("a")->value.url], "s3://b/f_{{i}}/x.nc");
  for (bool templates : {false, true}) {
    auto back = ParseKerchunkJson(Serialize(*r, templates));
    ASSERT_TRUE(back.ok()) << back.status().message();
    EXPECT_TRUE(SameReferences(*r, *back));
  }
  auto plain = ParseKerchunkJson(R"({"version":1,"refs":{"b":["/data/{{literal}}.nc",0,4]}})");
  ASSERT_TRUE(plain.ok()) << plain.status().message();
  EXPECT_EQ(plain->urls[plain->FindEntry("b")->value.url], "/data/{{literal}}.nc");
}

// Property: serialize -> parse gives back the same references, with and without templates.
TEST(KerchunkJsonTest, RandomRoundTrip) {
  std::mt19937_64 rng(11);
  for (int i = 0; i < 300; ++i) {
    ReferenceSet r = testing::RandomReferenceSet(rng);
    for (bool templates : {false, true}) {
      std::string text = Serialize(r, templates);
      auto back = ParseKerchunkJson(text);
      ASSERT_TRUE(back.ok()) << back.status().message() << "\n" << text;
      EXPECT_TRUE(SameReferences(r, *back)) << text;
      EXPECT_EQ(back->ChunkCount(), r.ChunkCount());
    }
  }
}

// What StreamKerchunkJson gives its sink, concatenated, and how many pieces.
std::pair<std::string, size_t> Streamed(const ReferenceSet& r, const WriteOptions& options) {
  std::string text;
  size_t pieces = 0;
  Status s = StreamKerchunkJson(r, options, [&](std::string_view piece) {
    if (pieces++ == 0) {
      EXPECT_TRUE(piece.ends_with("\"refs\":{")) << piece;
    }
    text += piece;
    return OkStatus();
  });
  EXPECT_TRUE(s.ok()) << s.message();
  return {text, pieces};
}

// Property: the streamed pieces, serialized on any number of threads, are the text
// SerializeKerchunkJson writes, byte for byte; on sets large enough to be split (arrays of up
// to 67,600 chunks: 3 pieces), with inline values, whole-file references and arrays placed
// before any metadata.
TEST(KerchunkJsonTest, StreamedOnAnyThreadsIsTheSameText) {
  std::mt19937_64 rng(23);
  testing::RandomRefsOptions large{.max_arrays = 5, .max_chunks_per_dim = 260, .max_rank = 2};
  for (int i = 0; i < 12; ++i) {
    const ReferenceSet r =
        testing::RandomReferenceSet(rng, i % 3 ? large : testing::RandomRefsOptions{});
    for (bool templates : {false, true}) {
      std::string text;
      SerializeKerchunkJson(r, {.templates = templates}, text);
      // Rows are written in batches of 1,024 with keys counted on from the previous row: the
      // text parses back to the same references across batch and piece boundaries.
      auto back = ParseKerchunkJson(text);
      ASSERT_TRUE(back.ok()) << back.status().message();
      EXPECT_TRUE(SameReferences(r, *back)) << "set " << i;
      for (unsigned threads : {1u, 2u, 4u}) {
        auto [streamed, pieces] = Streamed(r, {.templates = templates, .threads = threads});
        EXPECT_GE(pieces, 2u);
        EXPECT_EQ(streamed, text) << threads << " threads, set " << i;
      }
    }
  }
}

// A sink that fails stops the stream with its error, at once (no piece after it), on any
// number of threads: the writer's threads do not hang waiting for a consumer that left.
TEST(KerchunkJsonTest, StreamStopsAtTheSinksError) {
  std::mt19937_64 rng(29);
  const ReferenceSet r = testing::RandomReferenceSet(
      rng, {.max_arrays = 4, .max_chunks_per_dim = 300, .max_rank = 2, .missing = 0});
  for (unsigned threads : {1u, 2u, 8u}) {
    for (size_t fail_at : {0, 1, 2}) {
      size_t calls = 0;
      Status s = StreamKerchunkJson(r, {.threads = threads}, [&](std::string_view) {
        return calls++ == fail_at ? IoError("disk full") : OkStatus();
      });
      EXPECT_EQ(s.code(), StatusCode::kIoError);
      EXPECT_EQ(s.message(), "disk full");
      EXPECT_EQ(calls, fail_at + 1);
    }
  }
}

TEST(KerchunkJsonTest, WriteFileIsAtomicAndReadable) {
  testing::TempDir dir;
  std::mt19937_64 rng(5);
  ReferenceSet r = testing::RandomReferenceSet(rng);
  std::string path = dir / "refs.json";
  ASSERT_TRUE(WriteKerchunkFile(r, path).ok());
  auto back = ReadKerchunkFile(path);
  ASSERT_TRUE(back.ok()) << back.status().message();
  EXPECT_TRUE(SameReferences(r, *back));
  auto missing = ReadKerchunkFile(dir / "missing.json");
  EXPECT_EQ(missing.status().code(), StatusCode::kNotFound);
  EXPECT_THAT(missing.status().message(), HasSubstr("missing.json"));
}

}  // namespace
}  // namespace kerchunk
