// No command replaces one of its inputs: an output (-o, --junit, --json, --plot) that is the same
// file as an input, however it is spelled (hard link, symbolic link, ./, found in an input
// folder, listed in --files-from), is refused up front with exit status 2, and the input keeps
// its bytes. An output that does not exist yet is fine.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>

#include "apps/apps_testing.h"
#include "kerchunk/json/kerchunk_json.h"

namespace kerchunk::testing {
namespace {

namespace fs = std::filesystem;

std::string Refusal(const std::string& option, const std::string& output,
                    const std::string& input) {
  return option + " " + output + " is the same file as the input " + input +
         "; refusing to overwrite an input";
}

using CliInputOutputTest = CliGuardTest;

TEST_F(CliInputOutputTest, ScanRefusesItsInputAsOutput) {
  const std::string in = Series(0);
  const Fingerprint before = FingerprintOf(in);
  auto r = RunKerchunk("scan " + ShellQuote(in) + " -o " + ShellQuote(in));
  EXPECT_TRUE(FailsWith(r, "scan", Refusal("-o", in, in)));
  EXPECT_EQ(FingerprintOf(in), before);
}

TEST_F(CliInputOutputTest, ScanRefusesOtherSpellingsOfTheInput) {
  const std::string in = Series(1);
  const Fingerprint before = FingerprintOf(in);
  const std::string hard = Scratch("hard.nc"), soft = Scratch("soft.json");
  fs::create_hard_link(in, hard);
  fs::create_symlink(in, soft);
  for (const std::string& out : {hard, soft}) {
    auto r = RunKerchunk("scan " + ShellQuote(in) + " -o " + ShellQuote(out));
    EXPECT_TRUE(FailsWith(r, "scan", Refusal("-o", out, in)));
  }
  // ./day_001.nc from inside the folder, the input given as day_001.nc.
  auto dot = RunCommand("cd " + ShellQuote(Data().string()) + " && " +
                        ShellQuote(KerchunkBinary()) + " scan day_001.nc -o ./day_001.nc");
  EXPECT_TRUE(FailsWith(dot, "scan", Refusal("-o", "./day_001.nc", "day_001.nc")));
  EXPECT_EQ(FingerprintOf(in), before);
}

TEST_F(CliInputOutputTest, ScanRefusesAFileOfAnInputFolderOrList) {
  const std::string in = Series(2);
  const Fingerprint before = FingerprintOf(in);
  auto folder = RunKerchunk("scan " + ShellQuote(Data().string()) + " -o " + ShellQuote(in));
  EXPECT_TRUE(FailsWith(folder, "scan", Refusal("-o", in, in)));
  auto listed =
      RunKerchunk("scan --files-from - -o " + ShellQuote(in) + " <<'EOF'\n" + in + "\nEOF\n");
  EXPECT_TRUE(FailsWith(listed, "scan", Refusal("-o", in, in)));
  const std::string list = Scratch("list.txt");
  std::ofstream(list) << Series(0) << "\n";
  auto list_file = RunKerchunk("scan --files-from " + ShellQuote(list) + " -o " + ShellQuote(list));
  EXPECT_TRUE(FailsWith(list_file, "scan", Refusal("-o", list, list)));
  EXPECT_EQ(FingerprintOf(in), before);
}

TEST_F(CliInputOutputTest, CombinePackAndUnpackRefuseTheirInput) {
  const std::string refs = Scratch("refs.json");
  fs::copy_file(Refs(), refs);
  const Fingerprint before = FingerprintOf(refs);
  auto combine = RunKerchunk("combine " + ShellQuote(Refs()) + " " + ShellQuote(refs) + " -o " +
                             ShellQuote(refs));
  EXPECT_TRUE(FailsWith(combine, "combine", Refusal("-o", refs, refs)));
  auto pack = RunKerchunk("pack " + ShellQuote(refs) + " -o " + ShellQuote(refs));
  EXPECT_TRUE(FailsWith(pack, "pack", Refusal("-o", refs, refs)));
  EXPECT_EQ(FingerprintOf(refs), before);

  const std::string packed = Scratch("refs.packed.json");
  ASSERT_EQ(RunKerchunk("pack -q " + ShellQuote(refs) + " -o " + ShellQuote(packed)).exit_code, 0);
  const Fingerprint packed_before = FingerprintOf(packed);
  auto unpack = RunKerchunk("unpack " + ShellQuote(packed) + " -o " + ShellQuote(packed));
  EXPECT_TRUE(FailsWith(unpack, "unpack", Refusal("-o", packed, packed)));
  EXPECT_EQ(FingerprintOf(packed), packed_before);
}

TEST_F(CliInputOutputTest, VerifyRefusesJunitOverTheIndexTheOtherSetOrADataFile) {
  const std::string other = Scratch("other.json");
  fs::copy_file(Refs(), other);
  const Fingerprint refs_before = FingerprintOf(Refs()), other_before = FingerprintOf(other);
  const Fingerprint data_before = FingerprintOf(Series(0));
  auto self = RunKerchunk("verify " + ShellQuote(Refs()) + " --junit " + ShellQuote(Refs()));
  EXPECT_TRUE(FailsWith(self, "verify", Refusal("--junit", Refs(), Refs())));
  auto against = RunKerchunk("verify " + ShellQuote(Refs()) + " --against " + ShellQuote(other) +
                             " --junit " + ShellQuote(other));
  EXPECT_TRUE(FailsWith(against, "verify", Refusal("--junit", other, other)));
  auto data = RunKerchunk("verify -q " + ShellQuote(Refs()) + " --junit " + ShellQuote(Series(0)));
  EXPECT_TRUE(FailsWith(data, "verify",
                        "--junit " + Series(0) + " is the same file as the referenced file " +
                            Series(0) + "; refusing to overwrite an input"));
  EXPECT_EQ(FingerprintOf(Refs()), refs_before);
  EXPECT_EQ(FingerprintOf(other), other_before);
  EXPECT_EQ(FingerprintOf(Series(0)), data_before);
}

TEST_F(CliInputOutputTest, BenchRefusesJsonOrPlotOverAnInput) {
  const std::string refs = Scratch("refs.json");
  fs::copy_file(Refs(), refs);
  const Fingerprint before = FingerprintOf(refs);
  auto json = RunKerchunk("bench -q " + ShellQuote(refs) + " --json " + ShellQuote(refs));
  EXPECT_TRUE(FailsWith(json, "bench", Refusal("--json", refs, refs)));
  auto plot =
      RunKerchunk("bench -q " + ShellQuote(Data().string()) + " --plot " + ShellQuote(Series(1)));
  EXPECT_TRUE(FailsWith(plot, "bench", Refusal("--plot", Series(1), Series(1))));
  EXPECT_EQ(FingerprintOf(refs), before);
}

// A list that can be read only once (a FIFO here; also `--files-from <(find ...)` or standard
// input): the checks made when the output exists read it, and the scan must use those lines, not
// read the list again. Reading it again waited for a writer that had gone (a FIFO) or found it
// empty ("no input"), with --identical-dims too.
TEST_F(CliInputOutputTest, AListReadableOnlyOnceIsReadOnce) {
  const std::string out = Scratch("out.json");
  std::ofstream(out) << "{}\n";  // an earlier output: the checks run
  const std::string list = Scratch("list.fifo");
  ASSERT_EQ(::mkfifo(list.c_str(), 0600), 0);
  for (const std::string& extra : {std::string(), std::string(" --identical-dims lat,lon")}) {
    const std::string writer = "(printf '%s\\n' " + ShellQuote(Series(0)) + " " +
                               ShellQuote(Series(1)) + " > " + ShellQuote(list) + " &); ";
    auto r =
        RunCommand(writer + "timeout 30 " + ShellQuote(KerchunkBinary()) +
                   " scan -q --files-from " + ShellQuote(list) + " -o " + ShellQuote(out) + extra);
    ASSERT_EQ(r.exit_code, 0) << extra << ": " << r.err;
    auto refs = ReadKerchunkFile(out);
    ASSERT_TRUE(refs.ok()) << refs.status().message();
    EXPECT_EQ(refs->urls.size(), 2u) << extra;  // both listed files, combined
  }
}

TEST_F(CliInputOutputTest, AnOutputThatDoesNotExistOrIsAnotherFileIsFine) {
  const std::string out = Scratch("new.json");
  auto fresh = RunKerchunk("scan -q " + ShellQuote(Series(0)) + " -o " + ShellQuote(out));
  ASSERT_EQ(fresh.exit_code, 0) << fresh.err;
  auto again = RunKerchunk("scan -q " + ShellQuote(Series(1)) + " -o " + ShellQuote(out));
  EXPECT_EQ(again.exit_code, 0) << again.err;  // replacing an earlier output is what -o is for
  EXPECT_THAT(TempFilesIn(tmp_.path()), ::testing::IsEmpty());
}

}  // namespace
}  // namespace kerchunk::testing
