// Hostile inputs through the built program (docs/fuzzing.md, "Limits on hostile sizes"): each
// gets a one-line error and a documented exit status in bounded time and memory, never a crash
// (exit 139) or a partial output file. Each case here was a crash, an out-of-memory or a
// silent acceptance before issue 12.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "kerchunk/json/kerchunk_json.h"
#include "support/test_env.h"

namespace kerchunk {
namespace {

using kerchunk::testing::RunCommand;
using kerchunk::testing::ShellQuote;
using ::testing::HasSubstr;

class HostileInputTest : public ::testing::Test {
 protected:
  std::string Write(const std::string& name, const std::string& text) {
    std::string path = tmp_ / name;
    std::ofstream(path, std::ios::binary) << text;
    return path;
  }
  kerchunk::testing::CommandResult Run(const std::string& args) {
    return RunCommand(ShellQuote(kerchunk::testing::KerchunkBinary()) + " " + args);
  }
  // pack must refuse `input` with exit 2, one line naming `message`, and write nothing.
  void ExpectPackRefuses(const std::string& input, const std::string& message) {
    std::string out = tmp_ / "out.packed.json";
    auto r = Run("pack " + ShellQuote(input) + " -o " + ShellQuote(out));
    EXPECT_EQ(r.exit_code, 2) << r.err;
    EXPECT_THAT(r.err, HasSubstr(message));
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_FALSE(std::filesystem::exists(out));
  }

  kerchunk::testing::TempDir tmp_;
};

const char kZarray1e12[] =
    R"({\"chunks\":[1],\"compressor\":null,\"dtype\":\"<i4\",\"fill_value\":0,)"
    R"(\"filters\":null,\"order\":\"C\",\"shape\":[1000000000000],\"zarr_format\":2})";

// A malformed value inside "refs" used to be packed into a file unpack refused.
TEST_F(HostileInputTest, MalformedValueIsRefusedByPackAndVerify) {
  std::string in = Write("bad.json", R"({"version":1,"refs":{"x":"a","y":{"a":{"et" 1}}}})");
  ExpectPackRefuses(in, R"(key "y": value at byte 33: invalid JSON)");
  auto v = Run("verify " + ShellQuote(in) + " --format json");
  EXPECT_EQ(v.exit_code, 1) << v.err;
  EXPECT_THAT(v.out, HasSubstr(R"(key \"y\")"));
}

// "{{" + 200,000 "-" + "i}}" overflowed the stack of pack and verify (exit 139).
TEST_F(HostileInputTest, LongTemplateExpressionPacksAndVerifies) {
  std::string in = Write("minus.json", R"({"version":1,"refs":{},"gen":[{"key":"k{{)" +
                                           std::string(200'000, '-') +
                                           R"(i}}","url":"u","dimensions":{"i":{"stop":2}}}]})");
  std::string out = tmp_ / "minus.packed.json", back = tmp_ / "minus.back.json";
  auto p = Run("pack -q " + ShellQuote(in) + " -o " + ShellQuote(out));
  ASSERT_EQ(p.exit_code, 0) << p.err;
  auto u = Run("unpack " + ShellQuote(out) + " -o " + ShellQuote(back));
  ASSERT_EQ(u.exit_code, 0) << u.err;
  auto refs = ReadKerchunkFile(back);
  ASSERT_TRUE(refs.ok()) << refs.status().message();
  EXPECT_NE(refs->FindEntry("k0"), nullptr);
  EXPECT_NE(refs->FindEntry("k1"), nullptr);  // an even number of signs: +1
  auto v = Run("verify -q --no-files " + ShellQuote(in));
  EXPECT_EQ(v.exit_code, 0) << v.out << v.err;
}

TEST_F(HostileInputTest, DeepNestingIsRefusedWithoutRecursionLimitsBeingHit) {
  const int n = 100'000;
  std::string objects = R"({"version":1,"refs":{"a":)";
  for (int i = 0; i < n; ++i) objects += R"({"k":)";
  objects += "1" + std::string(n, '}') + "}}";
  ExpectPackRefuses(Write("objects.json", objects), "nesting deeper than 256 levels");
  std::string arrays =
      R"({"version":1,"refs":{"a":)" + std::string(n, '[') + std::string(n, ']') + "}}";
  ExpectPackRefuses(Write("arrays.json", arrays), R"(refs key "a")");
}

TEST_F(HostileInputTest, GenDescribingBillionsOfKeysIsRefusedBeforeGenerating) {
  ExpectPackRefuses(
      Write("gen15.json",
            R"({"version":1,"refs":{},"gen":[{"key":"k{{i}}.{{j}}.{{k}}","url":"u","dimensions":)"
            R"({"i":{"stop":100000},"j":{"stop":100000},"k":{"stop":100000}}}]})"),
      "describes more than 100000000 references");
  // 10^8 keys that are no array's chunks: refused after 10^6 (it used to exhaust 24 GB).
  ExpectPackRefuses(
      Write("gen8.json",
            R"({"version":1,"refs":{},"gen":[{"key":"k{{i}}_{{j}}","url":"u","dimensions":)"
            R"({"i":{"stop":10000},"j":{"stop":10000}}}]})"),
      "more than 1000000 of the generated keys are not chunks");
}

// A grid of 10^12 chunks costs only what is referenced, in every command.
TEST_F(HostileInputTest, HugeChunkGridCostsOnlyItsReferences) {
  std::string in =
      Write("grid.json", std::string(R"({"version":1,"refs":{".zgroup":"{\"zarr_format\":2}",)") +
                             R"("x/.zarray":")" + kZarray1e12 + R"(",)" +
                             R"("x/999999999999":["f.nc",0,4],"x/0":["f.nc",4,4]}})");
  std::string packed = tmp_ / "grid.packed.json", back = tmp_ / "grid.back.json";
  auto p = Run("pack -q " + ShellQuote(in) + " -o " + ShellQuote(packed));
  ASSERT_EQ(p.exit_code, 0) << p.err;
  auto u = Run("unpack " + ShellQuote(packed) + " -o " + ShellQuote(back));
  ASSERT_EQ(u.exit_code, 0) << u.err;
  auto refs = ReadKerchunkFile(back);
  ASSERT_TRUE(refs.ok()) << refs.status().message();
  EXPECT_EQ(refs->ChunkCount(), 2u);
  auto v = Run("verify -q --no-files " + ShellQuote(packed));
  EXPECT_EQ(v.exit_code, 0) << v.out << v.err;
}

// A packed file whose counts claim more references than its columns hold.
TEST_F(HostileInputTest, PackedCountsBeyondTheColumnsAreRefused) {
  std::string text = std::string(R"({"version":1,"refs":{".zgroup":"{\"zarr_format\":2}",)") +
                     R"("x/.zarray":")" + kZarray1e12 + R"(")";
  for (int i = 0; i < 1000; ++i) text += fmt::format(R"(,"x/{}":["f.nc",{},4])", i, 4 * i);
  std::string in = Write("many.json", text + "}}");
  std::string packed = tmp_ / "many.packed.json";
  ASSERT_EQ(Run("pack -q --readable " + ShellQuote(in) + " -o " + ShellQuote(packed)).exit_code, 0);
  std::ifstream f(packed);
  text.assign((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  const std::string count = "\"references\":1000,";
  size_t at = text.find(count);
  ASSERT_NE(at, std::string::npos) << text;
  text.replace(at, count.size(), "\"references\":1000000000000,");
  std::string claim = Write("claim.packed.json", text);
  auto u = Run("unpack " + ShellQuote(claim) + " -o " + ShellQuote(tmp_ / "u.json"));
  EXPECT_EQ(u.exit_code, 2) << u.err;
  EXPECT_THAT(u.err, HasSubstr("\"references\" is 1000000000000"));
  EXPECT_FALSE(std::filesystem::exists(tmp_ / "u.json"));
}

}  // namespace
}  // namespace kerchunk
