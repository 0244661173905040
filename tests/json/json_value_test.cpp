#include "kerchunk/json/json_value.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <functional>
#include <random>

namespace kerchunk::json {
namespace {

struct DoubleCase {
  double value;
  const char* python_repr;
};

// Expected text produced by Python 3's repr() of the same doubles.
TEST(JsonValueTest, DoublesPrintLikePython) {
  const DoubleCase cases[] = {
      {0.0, "0.0"},
      {1.0, "1.0"},
      {-2.5, "-2.5"},
      {1e+20, "1e+20"},
      {1e+16, "1e+16"},
      {1000000000000000.0, "1000000000000000.0"},
      {123456789.123, "123456789.123"},
      {1.5e-07, "1.5e-07"},
      {0.0001, "0.0001"},
      {1e-05, "1e-05"},
      {9.969209968386869e+36, "9.969209968386869e+36"},
      {1.0000000200408773e+20, "1.0000000200408773e+20"},
      {3.4028234663852886e+38, "3.4028234663852886e+38"},
      {-0.0, "-0.0"},
      {5e-324, "5e-324"},
      {1.7976931348623157e+308, "1.7976931348623157e+308"},
      {0.1, "0.1"},
      {100.0, "100.0"},
      {1e-05, "1e-05"},
      {1.2345678901234567e+19, "1.2345678901234567e+19"},
      {9007199254740992.0, "9007199254740992.0"},
  };
  for (const auto& c : cases) {
    std::string out;
    AppendDouble(out, c.value);
    EXPECT_EQ(out, c.python_repr);
    auto back = Value::Parse(out);
    ASSERT_TRUE(back.ok());
    EXPECT_EQ(back->as_double(), c.value);
  }
}

TEST(JsonValueTest, NonFiniteTokens) {
  auto v = Value::Parse(R"({"a":NaN,"b":Infinity,"c":-Infinity,"d":1e400})");
  ASSERT_TRUE(v.ok()) << v.status().message();
  EXPECT_TRUE(std::isnan(v->Find("a")->as_double()));
  EXPECT_EQ(v->Find("b")->as_double(), INFINITY);
  EXPECT_EQ(v->Find("c")->as_double(), -INFINITY);
  EXPECT_EQ(v->Find("d")->as_double(), INFINITY);
  EXPECT_EQ(v->Dump(), R"({"a":NaN,"b":Infinity,"c":-Infinity,"d":Infinity})");
}

TEST(JsonValueTest, SortsKeysAndKeepsLastDuplicate) {
  auto v = Value::Parse(R"({"z":1, "a":[true,false,null], "m":{"y":"s","b":2}, "z":3})");
  ASSERT_TRUE(v.ok());
  EXPECT_EQ(v->Dump(), R"({"a":[true,false,null],"m":{"b":2,"y":"s"},"z":3})");
}

TEST(JsonValueTest, IntegersKeepFullRange) {
  auto v = Value::Parse("[-9223372036854775808, 18446744073709551615, 1.5]");
  ASSERT_TRUE(v.ok());
  EXPECT_EQ(v->as_array()[0].as_int(), INT64_MIN);
  EXPECT_EQ(v->as_array()[1].type(), Value::Type::kUint);
  EXPECT_EQ(v->as_array()[1].as_uint(), UINT64_MAX);
  EXPECT_EQ(v->Dump(), "[-9223372036854775808,18446744073709551615,1.5]");
}

TEST(JsonValueTest, StringsEscapeAndUnescape) {
  auto v = Value::Parse(R"("a\"b\\c\n\u00e9\ud83d\ude00\/")");
  ASSERT_TRUE(v.ok());
  EXPECT_EQ(v->as_string(), "a\"b\\c\n\xc3\xa9\xf0\x9f\x98\x80/");
  EXPECT_EQ(v->Dump(), "\"a\\\"b\\\\c\\n\\u00e9\\ud83d\\ude00/\"");
  std::string ctl;
  AppendString(ctl, std::string("\x01", 1));
  EXPECT_EQ(ctl, "\"\\u0001\"");
  std::string del;
  AppendString(del, "\x7f~");  // json.dumps("\x7f~") == '"\\u007f~"'
  EXPECT_EQ(del, "\"\\u007f~\"");
  std::string invalid;
  AppendString(invalid, "a\xff\xc3");
  EXPECT_EQ(invalid, "\"a\\ufffd\\ufffd\"");
  EXPECT_TRUE(IsValidUtf8("\xc3\xa9"));
  EXPECT_FALSE(IsValidUtf8("\xc0\x80")) << "overlong";
  EXPECT_FALSE(IsValidUtf8("\xed\xa0\x80")) << "surrogate";
}

TEST(JsonValueTest, MeaningEquality) {
  EXPECT_EQ(*Value::Parse("{\"a\":0,\"b\":[1.0]}"), *Value::Parse("{\"b\":[1],\"a\":0.0}"));
  EXPECT_FALSE(*Value::Parse("[1]") == *Value::Parse("[2]"));
  EXPECT_FALSE(*Value::Parse("\"1\"") == *Value::Parse("1"));
  EXPECT_EQ(*Value::Parse("NaN"), *Value::Parse("NaN"));
}

TEST(JsonValueTest, RejectsMalformed) {
  for (const char* bad :
       {"", "{", "[1,]", "{\"a\" 1}", "tru", "\"abc", "1 2", "{1:2}", "-", R"("\x")", "[1e]"}) {
    EXPECT_FALSE(Value::Parse(bad).ok()) << bad;
  }
  std::string deep(100000, '[');
  EXPECT_FALSE(Value::Parse(deep).ok()) << "depth limit";
}

// Property: random documents survive Dump -> Parse unchanged.
TEST(JsonValueTest, RandomRoundTrip) {
  std::mt19937_64 rng(3);
  std::function<Value(int)> gen = [&](int depth) -> Value {
    switch (rng() % (depth > 3 ? 5 : 7)) {
      case 0:
        return Value::Null();
      case 1:
        return Value::Int(static_cast<int64_t>(rng()));
      case 2: {
        double d;
        uint64_t bits = rng();
        std::memcpy(&d, &bits, 8);
        return Value::Double(d);
      }
      case 3: {
        std::string s(rng() % 8, ' ');
        for (auto& ch : s) ch = static_cast<char>(1 + rng() % 127);
        return Value::String(s);
      }
      case 4:
        return Value::Bool(rng() & 1);
      case 5: {
        Value a = Value::MakeArray();
        for (int i = rng() % 4; i > 0; --i) a.Push(gen(depth + 1));
        return a;
      }
      default: {
        Value o = Value::MakeObject();
        for (int i = rng() % 4; i > 0; --i) o.Set(std::to_string(rng() % 10), gen(depth + 1));
        return o;
      }
    }
  };
  for (int i = 0; i < 2000; ++i) {
    Value v = gen(0);
    auto back = Value::Parse(v.Dump());
    ASSERT_TRUE(back.ok()) << v.Dump();
    EXPECT_EQ(*back, v) << v.Dump();
    EXPECT_EQ(back->Dump(), v.Dump());
  }
}

}  // namespace
}  // namespace kerchunk::json
