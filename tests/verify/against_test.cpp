// --against on small sets: what is a difference and what is only a different way of writing
// the same references.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>

#include "kerchunk/json/kerchunk_json.h"
#include "kerchunk/pack/pack.h"
#include "kerchunk/util/file_io.h"
#include "kerchunk/verify/verify.h"
#include "support/test_env.h"

namespace kerchunk::verify {
namespace {

using ::testing::HasSubstr;

constexpr const char* kZarray =
    R"({\"chunks\":[2],\"compressor\":null,\"dtype\":\"|u1\",\"fill_value\":0,)"
    R"(\"filters\":null,\"order\":\"C\",\"shape\":[4],\"zarr_format\":2})";

class AgainstTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::ofstream f(dir_ / "f.bin", std::ios::binary);
    f << "abcdefgh";
  }

  // Verifies `input` against `other` (both Kerchunk JSON text; `other` written to a file).
  Report Compare(const std::string& input, const std::string& other, bool pack_other = false) {
    Result<ReferenceSet> a = ParseKerchunkJson(input);
    EXPECT_TRUE(a.ok()) << a.status().ToString();
    const std::string path = dir_ / "other.json";
    if (pack_other) {
      Result<ReferenceSet> b = ParseKerchunkJson(other);
      EXPECT_TRUE(b.ok());
      Result<pack::PackedText> packed = pack::Pack(*b);
      EXPECT_TRUE(packed.ok());
      EXPECT_TRUE(WriteFileAtomically(path, packed->text).ok());
    } else {
      EXPECT_TRUE(WriteFileAtomically(path, other).ok());
    }
    VerifyOptions options;
    options.input = "input.json";
    options.against = path;
    options.files = FilesMode::kOff;
    options.rewrites.push_back({"data", dir_.path().string()});
    Result<Report> r = VerifyReferences(*a, options);
    EXPECT_TRUE(r.ok()) << r.status().ToString();
    return r.ok() ? *std::move(r) : Report();
  }

  static std::string Doc(const std::string& refs) {
    return std::string(R"({"version":1,"refs":{".zgroup":"{\"zarr_format\":2}","t/.zarray":")") +
           kZarray + "\"," + refs + "}}";
  }

  static std::string Messages(const Report& r) {
    std::string out;
    for (const CaseLog* c : r.Cases()) {
      if (c->check() != Check::kAgainst) continue;
      for (const Finding& f : c->findings()) out += f.message + "\n";
    }
    return out;
  }

  testing::TempDir dir_;
};

TEST_F(AgainstTest, SameReferencesWrittenDifferentlyAreEqual) {
  const std::string input = Doc(R"("t/0":["data/f.bin",0,2],"t/1":"base64:Y2Q=")");
  // Other key order, metadata with other spacing and key order, the same file by another URL,
  // and the inline chunk as a plain string.
  const std::string other =
      R"({"version":1,"refs":{"t/1":"cd","t/0":[")" + (dir_ / "f.bin") +
      R"(",0,2],"t/.zarray":"{\"zarr_format\": 2, \"shape\": [4], \"chunks\": [2], )"
      R"(\"dtype\": \"|u1\", \"order\": \"C\", \"fill_value\": 0.0, \"filters\": null, )"
      R"(\"compressor\": null}",".zgroup":"{ \"zarr_format\" : 2 }"}})";
  Report r = Compare(input, other);
  EXPECT_TRUE(r.passed()) << Messages(r);
  EXPECT_EQ(r.diff_totals().compared, 4u);
  EXPECT_EQ(r.diff_totals(), (DiffTotals{4, 0, 0, 0, 0, 0}));
}

TEST_F(AgainstTest, PackedAndUnpackedAreEqual) {
  const std::string doc = Doc(R"("t/0":["data/f.bin",0,2],"t/1":["data/f.bin",2,2])");
  Report r = Compare(doc, doc, /*pack_other=*/true);
  EXPECT_TRUE(r.passed()) << Messages(r);
  EXPECT_EQ(r.diff_totals().compared, 4u);
}

TEST_F(AgainstTest, InlineAndRangeWithEqualBytesAreEqual) {
  Report same = Compare(Doc(R"("t/0":["data/f.bin",2,2])"), Doc(R"("t/0":"base64:Y2Q=")"));
  EXPECT_TRUE(same.passed()) << Messages(same);
  EXPECT_EQ(same.diff_totals().same_bytes_inline, 1u);

  Report other = Compare(Doc(R"("t/0":["data/f.bin",0,2])"), Doc(R"("t/0":"base64:Y2Q=")"));
  EXPECT_FALSE(other.passed());
  EXPECT_THAT(Messages(other), HasSubstr("t/0: [\"" + (dir_ / "f.bin") +
                                         "\", 0, 2] in input.json, inline (2 bytes) in "));
}

TEST_F(AgainstTest, EachKindOfDifference) {
  std::string other = Doc(R"("t/0":["data/f.bin",0,3],"b":"y")");
  const std::string shape = R"(\"shape\":[4])";
  other.replace(other.find(shape), shape.size(), R"(\"shape\":[6])");
  Report r = Compare(Doc(R"("t/0":["data/f.bin",0,2],"t/1":["data/f.bin",2,2],"a":"x")"), other);
  EXPECT_EQ(r.diff_totals().only_in_input, 2u);  // t/1, a
  EXPECT_EQ(r.diff_totals().only_in_other, 1u);  // b
  EXPECT_EQ(r.diff_totals().metadata, 1u);       // t/.zarray
  EXPECT_EQ(r.diff_totals().references, 1u);     // t/0
  const std::string m = Messages(r);
  EXPECT_THAT(m, HasSubstr("t/.zarray: metadata differs: \"shape\"[0]: 4 vs 6"));
  EXPECT_THAT(m, HasSubstr("t/1: only in input.json"));
  EXPECT_THAT(m, HasSubstr("b: only in " + (dir_ / "other.json")));
  EXPECT_THAT(m, HasSubstr(", 0, 2] in input.json, [\""));
  EXPECT_EQ(r.Failures(Check::kAgainst), 5u);
}

TEST_F(AgainstTest, KeysHeldAsEntriesOnOneSideAndChunksOnTheOther) {
  // Without its .zarray the input holds t/0 as a plain entry; the value is still compared.
  const std::string input =
      R"({"version":1,"refs":{".zgroup":"{\"zarr_format\":2}","t/0":["data/f.bin",0,2]}})";
  Report r = Compare(input, Doc(R"("t/0":["data/f.bin",0,2])"));
  EXPECT_EQ(r.diff_totals().only_in_other, 1u);  // t/.zarray
  EXPECT_EQ(r.diff_totals().references, 0u);
  EXPECT_EQ(r.diff_totals().compared, 2u);
}

TEST_F(AgainstTest, UnreadableOtherIsAnError) {
  Result<ReferenceSet> a = ParseKerchunkJson(Doc(R"("t/0":["data/f.bin",0,2])"));
  ASSERT_TRUE(a.ok());
  VerifyOptions options;
  options.input = "x";
  options.files = FilesMode::kOff;
  options.against = dir_ / "missing.json";
  Result<Report> r = VerifyReferences(*a, options);
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.status().code(), StatusCode::kNotFound);
  EXPECT_THAT(r.status().message(), HasSubstr("--against"));
}

}  // namespace
}  // namespace kerchunk::verify
