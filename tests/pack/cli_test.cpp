// `kerchunk pack` / `kerchunk unpack` through the built program: outputs, summaries, exit
// statuses, one-line errors, and no output file left behind on error.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "kerchunk/bench/synthetic_refs.h"
#include "kerchunk/json/json_value.h"
#include "kerchunk/json/kerchunk_json.h"
#include "kerchunk/util/file_io.h"
#include "pack_testing.h"
#include "support/refs_testing.h"
#include "support/test_env.h"

namespace kerchunk::pack {
namespace {

using kerchunk::testing::RunCommand;
using kerchunk::testing::ShellQuote;
using ::testing::HasSubstr;
using ::testing::StartsWith;

class PackCliTest : public ::testing::Test {
 protected:
  void SetUp() override {
    refs_ = SyntheticReferenceSet({.files = 3});
    input_ = tmp_ / "refs.json";
    ASSERT_TRUE(WriteKerchunkFile(refs_, input_).ok());
  }
  kerchunk::testing::CommandResult Run(const std::string& args) {
    return RunCommand(ShellQuote(kerchunk::testing::KerchunkBinary()) + " " + args);
  }
  ReferenceSet Read(const std::string& path) {
    auto r = ReadKerchunkFile(path);
    EXPECT_TRUE(r.ok()) << r.status().message();
    return r.ok() ? std::move(*r) : ReferenceSet();
  }

  kerchunk::testing::TempDir tmp_;
  ReferenceSet refs_;
  std::string input_;
};

TEST_F(PackCliTest, PackThenUnpackGivesTheSameReferences) {
  std::string packed = tmp_ / "p.json", out = tmp_ / "out.json";
  auto p = Run("pack --verbose " + ShellQuote(input_) + " -o " + ShellQuote(packed));
  ASSERT_EQ(p.exit_code, 0) << p.err;
  EXPECT_THAT(p.err, HasSubstr("of them chunk references)"));
  EXPECT_THAT(p.err, HasSubstr("gfactor"));
  EXPECT_THAT(p.err, HasSubstr("generator 0: t2m, tp, sst [72x4x4]"));
  auto u = Run("unpack " + ShellQuote(packed) + " -o " + ShellQuote(out));
  ASSERT_EQ(u.exit_code, 0) << u.err;
  EXPECT_TRUE(kerchunk::testing::SameReferences(refs_, Read(out)));
  // argv[0] dispatch, standard input and output, --readable, --quiet.
  auto piped = RunCommand("cat " + ShellQuote(input_) + " | " +
                          ShellQuote(kerchunk::testing::KerchunkBinary() + "-pack") +
                          " - -o - --readable -q | " +
                          ShellQuote(kerchunk::testing::KerchunkBinary()) + " unpack -");
  ASSERT_EQ(piped.exit_code, 0) << piped.err;
  EXPECT_EQ(piped.err, "");
  auto reread = ParseKerchunkJson(piped.out);
  ASSERT_TRUE(reread.ok()) << reread.status().message();
  EXPECT_TRUE(kerchunk::testing::SameReferences(refs_, *reread));
}

TEST_F(PackCliTest, KeysAndSelectionsPrintOnlyWhatIsNeeded) {
  std::string packed = tmp_ / "p.json";
  ASSERT_EQ(Run("pack -q " + ShellQuote(input_) + " -o " + ShellQuote(packed)).exit_code, 0);
  auto keys = Run("unpack " + ShellQuote(packed) + " --key t2m/1.2.3 --key 'tp/5.0.0'");
  ASSERT_EQ(keys.exit_code, 0) << keys.err;
  auto got = json::Value::Parse(keys.out);  // chunk keys without their .zarray: plain entries
  ASSERT_TRUE(got.ok()) << got.status().message();
  ASSERT_NE(got->Find("refs"), nullptr);
  EXPECT_EQ(got->Find("refs")->as_object().size(), 2u);
  const ArrayRefs& t2m = *refs_.FindArray("t2m");
  ChunkRef want = t2m.Get(*t2m.Find(1 * 16 + 2 * 4 + 3));
  EXPECT_THAT(keys.out, HasSubstr(fmt::format("\"t2m/1.2.3\":[\"{}\",{},{}]", refs_.urls[want.url],
                                              want.offset, want.length)));
  auto select = Run("unpack " + ShellQuote(packed) + " --select 't2m[0:2, :, 360:]' --metadata");
  ASSERT_EQ(select.exit_code, 0) << select.err;
  auto part = ParseKerchunkJson(select.out);
  ASSERT_TRUE(part.ok());
  EXPECT_EQ(part->FindArray("t2m")->size(), 2u * 4 * 3);
  EXPECT_NE(part->FindEntry(".zgroup"), nullptr);
  auto unknown = Run("unpack " + ShellQuote(packed) + " --key nothing/0");  // no such array
  EXPECT_EQ(unknown.exit_code, 2);
  EXPECT_THAT(unknown.err, HasSubstr("no array \"nothing\" in the index"));
  auto missing = Run("unpack " + ShellQuote(packed) + " --key t2m/99.0.0");  // never written
  EXPECT_EQ(missing.exit_code, 0);
  EXPECT_THAT(missing.err, HasSubstr("note: 1 of the requested keys have no reference"));
}

TEST_F(PackCliTest, ErrorsAreOneLineWithStatusTwoAndNoOutput) {
  std::string out = tmp_ / "out.json";
  std::string bad = tmp_ / "bad.json";
  std::ofstream(bad) << "{\"version\":1,\"refs\":{\"a\":[1,2";
  auto r = Run("pack " + ShellQuote(bad) + " -o " + ShellQuote(out));
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, StartsWith("kerchunk pack: error: "));
  EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
  EXPECT_FALSE(std::filesystem::exists(out));

  auto not_packed = Run("unpack " + ShellQuote(input_) + " -o " + ShellQuote(out));
  EXPECT_EQ(not_packed.exit_code, 2);
  EXPECT_THAT(not_packed.err, HasSubstr("kerchunk unpack: error: "));
  EXPECT_THAT(not_packed.err, HasSubstr("not a packed Kerchunk file"));
  EXPECT_FALSE(std::filesystem::exists(out));

  // A packed file whose checksum does not match: the full unpack writes nothing. (The readable
  // form, to edit its text.)
  std::string packed = tmp_ / "p.json";
  ASSERT_EQ(Run("pack -q --readable " + ShellQuote(input_) + " -o " + ShellQuote(packed)).exit_code,
            0);
  auto text = ReadFileToString(packed);
  ASSERT_TRUE(text.ok());
  size_t at = text->find("\"checksum\":\"kcd2:");
  ASSERT_NE(at, std::string::npos);
  std::string corrupt = *text;
  char& digit = corrupt[corrupt.find('"', at + 18) - 1];
  digit = digit == '0' ? '1' : '0';
  ASSERT_TRUE(WriteFileAtomically(packed, corrupt).ok());
  auto mismatch = Run("unpack " + ShellQuote(packed) + " -o " + ShellQuote(out));
  EXPECT_EQ(mismatch.exit_code, 2);
  EXPECT_THAT(mismatch.err, HasSubstr("checksum mismatch"));
  EXPECT_FALSE(std::filesystem::exists(out));

  EXPECT_EQ(Run("unpack " + ShellQuote(tmp_ / "absent.json")).exit_code, 2);
  EXPECT_EQ(Run("pack " + ShellQuote(input_)).exit_code, 2);  // -o is required
  auto bad_select = Run("unpack " + ShellQuote(packed) + " --select 't2m[0:1:2]'");
  EXPECT_EQ(bad_select.exit_code, 2);
  EXPECT_THAT(bad_select.err, HasSubstr("steps are not supported"));
}

TEST_F(PackCliTest, HelpHasExamples) {
  for (const char* command : {"pack", "unpack"}) {
    auto r = Run(std::string(command) + " --help");
    EXPECT_EQ(r.exit_code, 0);
    EXPECT_THAT(r.out, HasSubstr("Examples:"));
    EXPECT_THAT(r.out, HasSubstr(std::string("kerchunk ") + command));
  }
}

}  // namespace
}  // namespace kerchunk::pack
