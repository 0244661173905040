// Object codecs against bytes numcodecs 0.11 wrote:
//   numcodecs.JSON().encode(np.array(['a', 'é', None, 'x"y'], dtype=object))
//     -> b'["a","\\u00e9",null,"x\\"y","|O",[4]]'
//   numcodecs.JSON().encode(np.array([['a','b','c'],['d','e','f']], dtype=object))
//     -> b'[["a","b","c"],["d","e","f"],"|O",[2,3]]'
//   base64.b64encode(numcodecs.VLenUTF8().encode(np.array(['ab', '', 'ü'], dtype=object)))
//     -> b'AwAAAAIAAABhYgAAAAACAAAAw7w='
#include "kerchunk/codecs/object_codecs.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "kerchunk/codecs/pipeline.h"
#include "kerchunk/util/base64.h"

namespace kerchunk::codecs {
namespace {

using ::testing::HasSubstr;

std::shared_ptr<const ObjectCodec> Make(std::string_view id) {
  json::Value c = json::Value::MakeObject();
  c.Set("id", json::Value::String(std::string(id)));
  return *MakeObjectCodec(c);
}

TEST(ObjectCodecsTest, Json2Known1d) {
  auto codec = Make("json2");
  const std::string encoded = R"(["a","\u00e9",null,"x\"y","|O",[4]])";
  StringArray expected{{"a", "\xc3\xa9", std::nullopt, "x\"y"}, {4}};
  auto decoded = codec->Decode(encoded);
  ASSERT_TRUE(decoded.ok()) << decoded.status().ToString();
  EXPECT_EQ(*decoded, expected);
  EXPECT_EQ(*codec->Encode(expected), encoded);
}

TEST(ObjectCodecsTest, Json2Known2d) {
  auto codec = Make("json2");
  const std::string encoded = R"([["a","b","c"],["d","e","f"],"|O",[2,3]])";
  StringArray expected{{"a", "b", "c", "d", "e", "f"}, {2, 3}};
  EXPECT_EQ(*codec->Decode(encoded), expected);
  EXPECT_EQ(*codec->Encode(expected), encoded);
}

TEST(ObjectCodecsTest, Json2EscapesLikePython) {
  auto codec = Make("json2");
  // json.dumps(['\x7f\x01é😀"\\\n']) == '["\\u007f\\u0001\\u00e9\\ud83d\\ude00\\"\\\\\\n"]'
  StringArray items{{"\x7f\x01\xc3\xa9\xf0\x9f\x98\x80\"\\\n"}, {1}};
  EXPECT_EQ(*codec->Encode(items), R"(["\u007f\u0001\u00e9\ud83d\ude00\"\\\n","|O",[1]])");
  EXPECT_EQ(*codec->Decode(*codec->Encode(items)), items);
}

TEST(ObjectCodecsTest, Json2RejectsMalformed) {
  auto codec = Make("json2");
  for (const char* bad :
       {R"(["a","|O",[2]])", R"(["a",1,"|O",[2]])", R"([["a"],"|O",[1,2]])", R"("a")",
        R"([[1],"|O"])", R"(["a","|O",[-1]])", R"(["a",)", "", R"(["a","b","|O",[2,"x"]])"}) {
    auto r = codec->Decode(bad);
    ASSERT_FALSE(r.ok()) << bad;
    EXPECT_EQ(r.status().code(), StatusCode::kDataLoss) << bad;
    EXPECT_THAT(r.status().message(), HasSubstr("json2")) << bad;
  }
}

TEST(ObjectCodecsTest, VlenUtf8Known) {
  auto codec = Make("vlen-utf8");
  std::string encoded = *Base64Decode("AwAAAAIAAABhYgAAAAACAAAAw7w=");
  StringArray expected{{"ab", "", "\xc3\xbc"}, {3}};
  EXPECT_EQ(*codec->Decode(encoded), expected);
  EXPECT_EQ(*codec->Encode(expected), encoded);
}

TEST(ObjectCodecsTest, VlenTruncationsAndBadUtf8AreDataLoss) {
  auto codec = Make("vlen-utf8");
  std::string encoded = *Base64Decode("AwAAAAIAAABhYgAAAAACAAAAw7w=");
  for (size_t n = 0; n < encoded.size(); ++n) {
    auto r = codec->Decode(encoded.substr(0, n));
    ASSERT_FALSE(r.ok()) << n;
    EXPECT_EQ(r.status().code(), StatusCode::kDataLoss);
  }
  std::string bad_utf8 = std::string("\x01\0\0\0\x01\0\0\0\xff", 9);
  EXPECT_EQ(codec->Decode(bad_utf8).status().code(), StatusCode::kDataLoss);
  EXPECT_TRUE(Make("vlen-bytes")->Decode(bad_utf8).ok());
  // A huge declared count with no data fails without reserving for it.
  EXPECT_EQ(codec->Decode(std::string("\xff\xff\xff\xff", 4)).status().code(),
            StatusCode::kDataLoss);
}

TEST(ObjectCodecsTest, PipelineWithCompressor) {
  auto p = Pipeline::FromConfigs(*json::Value::Parse(R"({"id": "zlib", "level": 1})"),
                                 *json::Value::Parse(R"([{"id": "json2"}])"), "|O");
  ASSERT_TRUE(p.ok()) << p.status().ToString();
  EXPECT_TRUE(p->is_object());
  StringArray items{{"alpha", "beta", std::nullopt}, {3}};
  auto stored = p->EncodeStrings(items);
  ASSERT_TRUE(stored.ok());
  EXPECT_EQ(*p->DecodeStrings(*stored, 1000), items);
  EXPECT_EQ(p->DecodeStrings(*stored, 10).status().code(), StatusCode::kDataLoss);
  EXPECT_EQ(p->Decode(*stored, 10).status().code(), StatusCode::kUnsupported);
}

TEST(ObjectCodecsTest, ObjectDtypeNeedsObjectCodec) {
  auto p = Pipeline::FromConfigs(json::Value(), json::Value(), "|O");
  EXPECT_EQ(p.status().code(), StatusCode::kUnsupported);
  EXPECT_EQ(MakeObjectCodec(*json::Value::Parse(R"({"id": "pickle"})")).status().code(),
            StatusCode::kUnsupported);
}

}  // namespace
}  // namespace kerchunk::codecs
