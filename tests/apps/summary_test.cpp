// Summaries a user can read: one unit style for sizes (KiB, MiB) in scan and pack; pack says
// how much smaller, bytes per reference and where the bytes went, generator details only with
// --verbose; verify regroups the problems of files that moved and suggests the --rewrite.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <regex>

#include "apps/apps_testing.h"

namespace kerchunk::testing {
namespace {

namespace fs = std::filesystem;
using ::testing::ContainsRegex;
using ::testing::HasSubstr;
using ::testing::Not;
using ::testing::StartsWith;

using CliSummaryTest = CliGuardTest;

TEST_F(CliSummaryTest, PackSaysRatioBytesPerReferenceAndWhereTheBytesWent) {
  const std::string packed = Scratch("p.json");
  auto r = RunKerchunk("pack " + ShellQuote(Refs()) + " -o " + ShellQuote(packed));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.err, StartsWith("kerchunk pack: wrote " + packed + "\n  input    "));
  EXPECT_THAT(r.err, ContainsRegex("\n  output   [0-9.]+ (B|KiB): [0-9.]+x smaller, [0-9.]+ B per "
                                   "chunk reference \\([0-9.]+ B per key\\)\n"));
  EXPECT_THAT(r.err, ContainsRegex("\n  where    [0-9.]+ (B|KiB) +[0-9]+ references in 1 "
                                   "generator\n"));
  EXPECT_THAT(r.err, HasSubstr("kept as Kerchunk JSON (metadata, other values)\n"));
  EXPECT_THAT(r.err, ContainsRegex("\\(shares of the [0-9.]+ KiB of packed JSON and binary "
                                   "fields the file compresses\\)\n"));
  EXPECT_THAT(r.err, Not(HasSubstr("gfactor")));
  auto verbose = RunKerchunk("pack -v " + ShellQuote(Refs()) + " -o " + ShellQuote(packed));
  EXPECT_THAT(verbose.err, ContainsRegex("\n  generator 0: .* order, lengths predicted .*"
                                         "gfactor"));
}

TEST_F(CliSummaryTest, ScanAndPackUseTheSameUnits) {
  auto scan =
      RunKerchunk("scan " + ShellQuote(Data().string()) + " -o " + ShellQuote(Scratch("r.json")));
  auto pack =
      RunKerchunk("pack " + ShellQuote(Scratch("r.json")) + " -o " + ShellQuote(Scratch("p.json")));
  ASSERT_EQ(scan.exit_code, 0) << scan.err;
  ASSERT_EQ(pack.exit_code, 0) << pack.err;
  for (const std::string& text : {scan.err, pack.err}) {
    EXPECT_THAT(text, HasSubstr(" KiB"));
    EXPECT_THAT(text, Not(ContainsRegex("[0-9] (kB|MB|GB)\\b"))) << text;
  }
}

TEST_F(CliSummaryTest, VerifyGroupsMovedFilesAndSuggestsTheRewrite) {
  const fs::path before = tmp_.path() / "before", after = tmp_.path() / "after";
  fs::copy(Data(), before);
  const std::string refs = Scratch("moved.json");
  ASSERT_EQ(
      RunKerchunk("scan -q " + ShellQuote(before.string()) + " -o " + ShellQuote(refs)).exit_code,
      0);
  fs::rename(before, after);
  auto r = RunKerchunk("verify -q " + ShellQuote(refs));
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  // 3 files, several arrays each: one line per file instead of one per array and file.
  EXPECT_THAT(r.out, ContainsRegex("\nMissing files \\(3 files do not exist, [0-9]+ references "
                                   "into them; first 3\\):\n"));
  EXPECT_THAT(r.out, ContainsRegex("\n  " + before.string() +
                                   "/day_000.nc: [0-9]+ arrays, [0-9]+ references\n"));
  const std::string hint = "  hint: all are under " + before.string() +
                           "/; if they moved, verify with --rewrite " + before.string() +
                           "=NEW_FOLDER\n";
  EXPECT_THAT(r.out, HasSubstr(hint));
  EXPECT_THAT(r.out, Not(HasSubstr("Problems")));  // nothing else is wrong
  auto fixed = RunKerchunk("verify -q " + ShellQuote(refs) + " --rewrite " + before.string() + "=" +
                           after.string());
  EXPECT_EQ(fixed.exit_code, 0) << fixed.out;
}

}  // namespace
}  // namespace kerchunk::testing
