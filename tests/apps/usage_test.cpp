// Usage errors are one line in the form of every other error, and name what was probably meant:
// "kerchunk scan: error: unknown option --ouput (did you mean --output?)". --help marks the
// required options.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "apps/apps_testing.h"

namespace kerchunk::testing {
namespace {

using ::testing::HasSubstr;
using ::testing::IsEmpty;

using CliUsageTest = CliGuardTest;

TEST_F(CliUsageTest, MisspelledOptionOrCommandNamesTheIntendedOne) {
  const std::string in = ShellQuote(Series(0)), out = ShellQuote(Scratch("x.json"));
  EXPECT_TRUE(FailsWith(RunKerchunk("scan " + in + " --ouput " + out), "scan",
                        "unknown option --ouput (did you mean --output?)"));
  EXPECT_TRUE(FailsWith(RunKerchunk("scan " + in + " --ouput=" + out), "scan",
                        "unknown option --ouput (did you mean --output?)"));
  EXPECT_TRUE(FailsWith(RunKerchunk("verify " + ShellQuote(Refs()) + " --junt " + out), "verify",
                        "unknown option --junt (did you mean --junit?)"));
  EXPECT_TRUE(FailsWith(RunKerchunk("pack " + ShellQuote(Refs()) + " -o " + out + " --zzzzzz"),
                        "pack", "unknown option --zzzzzz"));
  auto command = RunKerchunk("sacn " + in + " -o " + out);
  EXPECT_EQ(command.exit_code, 2);
  EXPECT_EQ(command.err, "kerchunk: error: unknown command sacn (did you mean scan?)\n");
  auto unknown = RunKerchunk("frobnicate");
  EXPECT_EQ(unknown.err,
            "kerchunk: error: unknown command frobnicate; the commands are bench, combine, pack, "
            "scan, unpack, verify\n");
  auto none = RunKerchunk("");
  EXPECT_EQ(none.exit_code, 2);
  EXPECT_THAT(none.err, ::testing::StartsWith("kerchunk: error: no command given; "));
  EXPECT_THAT(FilesIn(tmp_.path()), IsEmpty());
}

TEST_F(CliUsageTest, OtherUsageErrorsAreOneLineToo) {
  const std::string in = ShellQuote(Series(0)), out = ShellQuote(Scratch("x.json"));
  EXPECT_TRUE(FailsWith(RunKerchunk("scan " + in), "scan", "--output is required"));
  EXPECT_TRUE(FailsWith(RunKerchunk("pack " + ShellQuote(Refs()) + " " + in + " -o " + out), "pack",
                        "unexpected argument " + Series(0)));
  EXPECT_TRUE(FailsWith(RunKerchunk("scan " + in + " -o " + out + " --on-error maybe"), "scan",
                        "--on-error: maybe not in {fail,skip}"));
  EXPECT_TRUE(FailsWith(RunKerchunk("verify " + ShellQuote(Refs()) + " --deep --sample half"),
                        "verify", "--sample: invalid value half"));
  EXPECT_THAT(FilesIn(tmp_.path()), IsEmpty());
}

TEST_F(CliUsageTest, HelpMarksRequiredOptionsAndListsSignalStatuses) {
  for (const char* command : {"scan", "combine", "pack"}) {
    auto help = RunKerchunk(std::string(command) + " --help");
    EXPECT_EQ(help.exit_code, 0);
    EXPECT_THAT(help.out, HasSubstr("-o,--output FILE REQUIRED")) << command;
  }
  for (const char* command : {"scan", "combine", "pack", "unpack", "verify", "bench"}) {
    auto help = RunKerchunk(std::string(command) + " --help");
    EXPECT_THAT(help.out, HasSubstr("130, 143, 129: stopped by Ctrl-C, SIGTERM or SIGHUP"))
        << command;
  }
  auto top = RunKerchunk("--help");
  EXPECT_THAT(top.out, HasSubstr("129, 130, 143 stopped by SIGHUP, SIGINT (Ctrl-C), SIGTERM"));
}

}  // namespace
}  // namespace kerchunk::testing
