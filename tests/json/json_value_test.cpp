#include "kerchunk/json/json_value.h"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <functional>
#include <random>
#include <string>
#include <utility>
#include <vector>

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

// Plain text is copied 8 bytes at a time: every byte value, at every position of a text longer
// than several words, is escaped exactly as when it stands alone.
TEST(JsonValueTest, EveryByteIsEscapedAtEveryPosition) {
  const std::string plain = "abcdefghijklmnopqrstuvwx";
  for (int b = 0; b < 256; ++b) {
    std::string alone;
    AppendString(alone, std::string(1, static_cast<char>(b)));
    const std::string inner = alone.substr(1, alone.size() - 2);
    for (size_t at = 0; at <= plain.size(); ++at) {
      std::string text = plain.substr(0, at) + static_cast<char>(b) + plain.substr(at);
      std::string got;
      AppendString(got, text);
      ASSERT_EQ(got, '"' + plain.substr(0, at) + inner + plain.substr(at) + '"')
          << "byte " << b << " at " << at;
    }
  }
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

// The messages and offsets are part of what users see when a metadata document is broken.
TEST(JsonValueTest, ErrorMessagesNameTheOffset) {
  const std::pair<std::string, std::string> cases[] = {
      {"", "0: unexpected end of input"},
      {" ", "1: unexpected end of input"},
      {"{", "1: expected a string key"},
      {"[1,]", "3: expected a value"},
      {"{\"a\" 1}", "5: expected ':'"},
      {"tru", "0: expected a value"},
      {"\"abc", "4: unterminated string"},
      {"1 2", "2: unexpected text after the JSON value"},
      {"{1:2}", "1: expected a string key"},
      {"-", "0: expected a value"},
      {R"("\x")", "3: unknown escape"},
      {"[1e]", "1: malformed number"},
      {"+1", "0: malformed number"},
      {"1-2", "0: malformed number"},
      {"[1 2]", "3: expected ',' or ']'"},
      {"{\"a\":1 \"b\":2}", "7: expected ',' or '}'"},
      {"{\"a\":1,}", "7: expected a string key"},
      {"\"a\nb\"", "3: control character in string"},
      {R"("\u12")", "3: truncated \\u escape"},
      {R"("\u12g4")", "3: bad \\u escape"},
      {"\"abc\\", "5: unterminated escape"},
      {"nulls", "4: unexpected text after the JSON value"},
      {"NaNx", "3: unexpected text after the JSON value"},
      {"-Inf", "0: expected a value"},
      {"[NaN,-NaN]", "5: expected a value"},
      {"{\"a\":}", "5: expected a value"},
      {"[", "1: unexpected end of input"},
      {"[1", "2: expected ',' or ']'"},
      {"{\"a\"", "4: expected ':'"},
      {"{\"a\":1", "6: expected ',' or '}'"},
  };
  for (const auto& [text, message] : cases) {
    auto v = Value::Parse(text);
    ASSERT_FALSE(v.ok()) << text;
    EXPECT_EQ(v.status().message(), "invalid JSON at offset " + message) << text;
  }
}

// 256 levels below the top one are allowed, one more is refused where it starts.
TEST(JsonValueTest, DepthLimitIsExact) {
  auto nested = [](int n, const std::string& inner) {
    return std::string(n, '[') + inner + std::string(n, ']');
  };
  EXPECT_TRUE(Value::Parse(nested(257, "")).ok());
  EXPECT_TRUE(Value::Parse(nested(256, "1")).ok());
  for (const std::string& text : {nested(258, ""), nested(257, "1")}) {
    auto v = Value::Parse(text);
    ASSERT_FALSE(v.ok());
    EXPECT_EQ(v.status().message(), "invalid JSON at offset 257: nesting deeper than 256 levels");
  }
  std::string objects;
  for (int i = 0; i < 257; ++i) objects += "{\"a\":";
  objects += "1" + std::string(257, '}');
  auto v = Value::Parse(objects);
  ASSERT_FALSE(v.ok());
  EXPECT_EQ(v.status().message(), "invalid JSON at offset 1285: nesting deeper than 256 levels");
  std::string ok_objects = objects.substr(5, objects.size() - 6);
  auto ok = Value::Parse(ok_objects);
  ASSERT_TRUE(ok.ok()) << ok.status().message();
  EXPECT_EQ(ok->Dump(), ok_objects);
}

// A number's kind decides how it prints back, so it must survive parsing exactly.
TEST(JsonValueTest, NumberKinds) {
  struct Case {
    const char* text;
    Value::Type type;
    const char* dump;
  };
  const Case cases[] = {
      {"01", Value::Type::kInt, "1"},
      {"-0", Value::Type::kInt, "0"},
      {"9223372036854775807", Value::Type::kInt, "9223372036854775807"},
      {"9223372036854775808", Value::Type::kUint, "9223372036854775808"},
      {"-9223372036854775809", Value::Type::kDouble, "-9.223372036854776e+18"},
      {"18446744073709551616", Value::Type::kDouble, "1.8446744073709552e+19"},
      {"1.", Value::Type::kDouble, "1.0"},
      {".5", Value::Type::kDouble, "0.5"},
      {"1e5", Value::Type::kDouble, "100000.0"},
      {"1e+5", Value::Type::kDouble, "100000.0"},
      {"1.5E-3", Value::Type::kDouble, "0.0015"},
      {"-0.0", Value::Type::kDouble, "-0.0"},
      {"-1e400", Value::Type::kDouble, "-Infinity"},
      {"1e-400", Value::Type::kDouble, "0.0"},
      {"\t\r\n 7 \n", Value::Type::kInt, "7"},
  };
  for (const auto& c : cases) {
    auto v = Value::Parse(c.text);
    ASSERT_TRUE(v.ok()) << c.text;
    EXPECT_EQ(v->type(), c.type) << c.text;
    EXPECT_EQ(v->Dump(), c.dump) << c.text;
  }
  EXPECT_EQ(Value::Uint(5).type(), Value::Type::kInt);
  EXPECT_EQ(Value::Parse("9223372036854775808")->as_int(), 0) << "a kUint is not an int64";
  EXPECT_EQ(Value::Parse("-3")->as_uint(), 0u);
  EXPECT_EQ(Value::Parse("2.5")->as_int(), 0);
  EXPECT_EQ(Value::Parse("9223372036854775808")->as_double(), 9223372036854775808.0);
}

// A lone high surrogate is kept as its 3-byte encoding, which prints as replacement characters.
TEST(JsonValueTest, LoneSurrogates) {
  EXPECT_EQ(Value::Parse(R"("\ud800")")->as_string(), "\xed\xa0\x80");
  EXPECT_EQ(Value::Parse(R"("\ud800\u0041")")->as_string(),
            "\xed\xa0\x80"
            "A");
  EXPECT_EQ(Value::Parse(R"("\ud800\u0041")")->Dump(), R"("\ufffd\ufffd\ufffdA")");
}

// Strings are scanned several bytes at a time: an escape, a quote or a control character must be
// found at any position, and bytes above 0x7f must pass through.
TEST(JsonValueTest, StringSpecialBytesAtAnyPosition) {
  for (size_t length = 0; length < 20; ++length) {
    for (size_t at = 0; at <= length; ++at) {
      std::string plain(length, 'a');
      for (size_t i = 0; i < length; i += 3) plain[i] = static_cast<char>(0xC3 + i % 2 * 0x3C);
      std::string text = "\"" + plain.substr(0, at) + "\\n" + plain.substr(at) + "\"";
      auto v = Value::Parse(text);
      ASSERT_TRUE(v.ok()) << text;
      EXPECT_EQ(v->as_string(), plain.substr(0, at) + "\n" + plain.substr(at));
      std::string quoted = "[\"" + plain.substr(0, at) + "\",\"" + plain.substr(at) + "\"]";
      auto q = Value::Parse(quoted);
      ASSERT_TRUE(q.ok()) << quoted;
      EXPECT_EQ(q->as_array()[0].as_string(), plain.substr(0, at));
      EXPECT_EQ(q->as_array()[1].as_string(), plain.substr(at));
      std::string control = "\"" + plain.substr(0, at) + "\x1f" + plain.substr(at) + "\"";
      auto c = Value::Parse(control);
      ASSERT_FALSE(c.ok());
      EXPECT_EQ(c.status().message(), "invalid JSON at offset " + std::to_string(at + 2) +
                                          ": control character in string");
      auto open = Value::Parse("\"" + plain);
      ASSERT_FALSE(open.ok());
      EXPECT_EQ(open.status().message(),
                "invalid JSON at offset " + std::to_string(length + 1) + ": unterminated string");
    }
  }
}

// Keys may arrive in any order, repeated, or already sorted (zarr's own output): objects end up
// sorted with the last value of a repeated key, as Python's json.loads keeps.
TEST(JsonValueTest, RepeatedKeysKeepTheLastValueInAnyOrder) {
  const std::pair<const char*, const char*> cases[] = {
      {R"({"a":1,"b":2,"c":3})", R"({"a":1,"b":2,"c":3})"},
      {R"({"c":1,"b":2,"a":3})", R"({"a":3,"b":2,"c":1})"},
      {R"({"a":1,"a":2})", R"({"a":2})"},
      {R"({"a":1,"b":2,"b":3})", R"({"a":1,"b":3})"},
      {R"({"a":1,"b":2,"a":3})", R"({"a":3,"b":2})"},
      {R"({"b":1,"a":2,"c":3,"a":4,"d":5,"b":6})", R"({"a":4,"b":6,"c":3,"d":5})"},
      {R"({"ab":1,"a":2,"":3,"abc":4,"a":{"z":1,"z":[2]}})",
       R"({"":3,"a":{"z":[2]},"ab":1,"abc":4})"},
      {R"({"b":{"d":1,"c":[1,{"z":1,"y":[2,3]},[]]},"a":[[1,2],[3]],"b":{"e":{}},"c":0})",
       R"({"a":[[1,2],[3]],"b":{"e":{}},"c":0})"},
  };
  for (const auto& [text, dump] : cases) {
    auto v = Value::Parse(text);
    ASSERT_TRUE(v.ok()) << text;
    EXPECT_EQ(v->Dump(), dump) << text;
    const auto& members = v->as_object();
    for (size_t i = 1; i < members.size(); ++i) EXPECT_LT(members[i - 1].first, members[i].first);
  }
  auto v = Value::Parse(R"({"b":1,"a":2,"b":3})");
  EXPECT_EQ(v->Find("b")->as_int(), 3);
  EXPECT_EQ(v->Find("a")->as_int(), 2);
  EXPECT_EQ(v->Find("c"), nullptr);
}

// A document that fails halfway leaves nothing behind for the next one.
TEST(JsonValueTest, ParsingAfterAnErrorStartsClean) {
  for (const char* broken : {R"({"a":[1,2,{"b":)", R"([1,{"x":[2,3)", R"({"k":"v","j":[{},)"}) {
    EXPECT_FALSE(Value::Parse(broken).ok()) << broken;
    auto v = Value::Parse(R"({"z":[7],"y":{"q":8}})");
    ASSERT_TRUE(v.ok());
    EXPECT_EQ(v->Dump(), R"({"y":{"q":8},"z":[7]})") << "after " << broken;
  }
}

// Accessors of another type answer empty or zero, so callers may read without checking first.
TEST(JsonValueTest, AccessorsOfAnotherTypeAreEmpty) {
  const Value values[] = {Value::Null(),           Value::Bool(true),          Value::Int(-7),
                          Value::Uint(1ull << 63), Value::Double(2.5),         Value::String("s"),
                          *Value::Parse("[1]"),    *Value::Parse(R"({"a":1})")};
  for (const Value& v : values) {
    SCOPED_TRACE(v.Dump());
    if (!v.is_string()) {
      EXPECT_EQ(v.as_string(), "");
    }
    if (!v.is_array()) {
      EXPECT_TRUE(v.as_array().empty());
    }
    if (!v.is_object()) {
      EXPECT_TRUE(v.as_object().empty());
      EXPECT_EQ(v.Find("a"), nullptr);
      Value copy = v;
      EXPECT_FALSE(copy.Erase("a"));
      EXPECT_EQ(copy, v);
    }
    if (v.type() != Value::Type::kBool) {
      EXPECT_FALSE(v.as_bool());
    }
    if (v.type() != Value::Type::kInt) {
      EXPECT_EQ(v.as_int(), 0);
    }
    if (!v.is_number()) {
      EXPECT_EQ(v.as_double(), 0);
    }
  }
  Value s = Value::String("s");
  EXPECT_TRUE(s.as_array().empty()) << "the mutable overload too";
  s.as_array().push_back(Value::Int(1));
  EXPECT_TRUE(s.as_array().empty());
  s.Push(Value::Int(1));
  s.Set("a", Value::Int(1));
  EXPECT_EQ(s.Dump(), R"("s")") << "edits of another type change nothing";
  Value null;
  null.Set("a", Value::Int(1)).Set("b", Value::Int(2));
  EXPECT_EQ(null.Dump(), "null");
  EXPECT_EQ(null.Find("a"), nullptr);
}

// Copies are deep and independent; moves carry the value whatever the types on both sides.
TEST(JsonValueTest, CopiesAndMovesKeepValues) {
  const std::string text =
      R"({"a":[1,2.5,"a string longer than any small-string buffer",null,true],)"
      R"("b":{"c":18446744073709551615,"d":"e"},"f":NaN})";
  const Value original = *Value::Parse(text);
  Value copy = original;
  EXPECT_EQ(copy.Dump(), text);
  copy.Find("b")->Set("d", Value::Int(1));
  copy.Find("a")->Push(Value::Null());
  EXPECT_EQ(original.Dump(), text) << "a copy shares nothing";
  Value moved = std::move(copy);
  EXPECT_EQ(moved.Find("b")->Find("d")->as_int(), 1);
  EXPECT_EQ(moved.Find("a")->as_array().size(), 6u);
  std::vector<Value> all = {
      Value::Null(),      Value::Bool(true),  Value::Int(-7), Value::Uint(UINT64_MAX),
      Value::Double(0.5), Value::String("x"), original,       *Value::Parse("[[],{}]")};
  for (const Value& from : all) {
    for (const Value& to : all) {
      Value a = to;
      a = from;
      EXPECT_EQ(a.Dump(), from.Dump());
      Value b = to;
      Value c = from;
      b = std::move(c);
      EXPECT_EQ(b.Dump(), from.Dump());
      Value d(std::move(b));
      EXPECT_EQ(d.Dump(), from.Dump());
    }
  }
  Value self = original;
  const Value& alias = self;
  self = alias;
  EXPECT_EQ(self.Dump(), text);
  Value outer = *Value::Parse(R"([{"k":["a long string that lives on the heap"]},2])");
  outer = outer.as_array()[0];  // from a value it owns
  EXPECT_EQ(outer.Dump(), R"({"k":["a long string that lives on the heap"]})");
  outer = std::move(*outer.Find("k"));
  EXPECT_EQ(outer.Dump(), R"(["a long string that lives on the heap"])");
  outer = std::move(outer.as_array()[0]);
  EXPECT_EQ(outer.Dump(), R"("a long string that lives on the heap")");
  std::vector<Value> grown;
  for (int i = 0; i < 100; ++i) grown.push_back(original);  // reallocation moves the elements
  for (const Value& v : grown) EXPECT_EQ(v.Dump(), text);
}

// Set keeps keys sorted and returns the stored member; Erase and Push edit in place.
TEST(JsonValueTest, EditsKeepKeysSorted) {
  Value o = Value::MakeObject();
  o.Set("m", Value::Int(1));
  o.Set("z", Value::Int(2));
  o.Set("a", Value::Int(3));
  Value& inner = o.Set("m", Value::MakeObject());
  inner.Set("k", Value::String("v"));
  EXPECT_EQ(o.Dump(), R"({"a":3,"m":{"k":"v"},"z":2})");
  EXPECT_TRUE(o.Erase("a"));
  EXPECT_FALSE(o.Erase("a"));
  Value& arr = o.Set("b", Value::MakeArray());
  arr.Push(Value::Int(1));
  arr.Push(Value::MakeArray()).Push(Value::Int(2));
  EXPECT_EQ(o.Dump(), R"({"b":[1,[2]],"m":{"k":"v"},"z":2})");
  EXPECT_EQ(Value::MakeArray({Value::Int(1), Value::String("x")}).Dump(), R"([1,"x"])");
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
