// Every numeric option checks its range and sign (as -j -1 always did): a negative count or size
// is not wrapped around into a huge one. Options that would be ignored or would mix outputs are
// refused or named in a warning; an unknown array in unpack --key is an error.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>

#include "apps/apps_testing.h"
#include "kerchunk/json/kerchunk_json.h"

namespace kerchunk::testing {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using ::testing::IsEmpty;

using CliOptionsTest = CliGuardTest;

// A usage error of a numeric option: exactly this one line, exit 2, nothing written.
void ExpectRejected(const std::string& command, const std::string& args, const std::string& message,
                    const fs::path& out_dir) {
  auto r = RunKerchunk(command + " " + args);
  EXPECT_EQ(r.exit_code, 2) << command << " " << args << "\n" << r.err;
  EXPECT_EQ(r.err, "kerchunk " + command + ": error: " + message + "\n") << args;
  EXPECT_THAT(r.out, IsEmpty()) << command << " " << args;
  EXPECT_THAT(FilesIn(out_dir), IsEmpty()) << command << " " << args;
}

TEST_F(CliOptionsTest, NegativeOrOutOfRangeNumbersAreUsageErrors) {
  const std::string in = ShellQuote(Series(0)), refs = ShellQuote(Refs());
  const std::string out = " -o " + ShellQuote(Scratch("out/x.json"));
  fs::create_directories(tmp_.path() / "out");
  const fs::path dir = tmp_.path() / "out";
  const Fingerprint before = FingerprintOf(Refs());
  ExpectRejected("scan", in + out + " --inline-threshold -5",
                 "--inline-threshold: expected a whole number >= 0, got -5", dir);
  ExpectRejected("scan", in + out + " -j -1",
                 "--jobs: expected a whole number from 0 to 4096, got -1", dir);
  ExpectRejected("scan", in + out + " -j many",
                 "--jobs: expected a whole number from 0 to 4096, got many", dir);
  ExpectRejected("combine", refs + out + " -j 1e9",
                 "--jobs: expected a whole number from 0 to 4096, got 1e9", dir);
  ExpectRejected("pack", refs + out + " --checkpoint-interval 0",
                 "--checkpoint-interval: expected a whole number from 1 to 65536, got 0", dir);
  ExpectRejected("unpack", refs + out + " --max-refs -1",
                 "--max-refs: expected a whole number >= 1, got -1", dir);
  ExpectRejected("verify", refs + " --max-report -3",
                 "--max-report: expected a whole number >= 0, got -3", dir);
  ExpectRejected("verify", refs + " --deep --seed -1",
                 "--seed: expected a whole number >= 0, got -1", dir);
  ExpectRejected("bench", refs + " --lookups -10",
                 "--lookups: expected a whole number >= 1, got -10", dir);
  ExpectRejected("bench", refs + " --compress-limit -1",
                 "--compress-limit: expected a whole number >= 0, got -1", dir);
  ExpectRejected("bench", "--synthetic 2x2 --vars -2",
                 "--vars: expected a whole number from 1 to 4294967295, got -2", dir);
  EXPECT_EQ(FingerprintOf(Refs()), before);
}

TEST_F(CliOptionsTest, UnpackKeyOfAnUnknownArrayIsAnErrorAMissingChunkANote) {
  const std::string packed = Scratch("refs.packed.json");
  ASSERT_EQ(RunKerchunk("pack -q " + ShellQuote(Refs()) + " -o " + ShellQuote(packed)).exit_code,
            0);
  const Fingerprint before = FingerprintOf(packed);
  auto unknown = RunKerchunk("unpack " + ShellQuote(packed) + " --key nosuch/.zarray -o " +
                             ShellQuote(Scratch("x.json")));
  EXPECT_TRUE(
      FailsWith(unknown, "unpack", "key \"nosuch/.zarray\": no array \"nosuch\" in the index"));
  EXPECT_FALSE(fs::exists(Scratch("x.json")));
  // tas/99.0.0 is outside the grid, so never written: a note, and -q silences it.
  auto note = RunKerchunk("unpack " + ShellQuote(packed) + " --key tas/99.0.0 --key tas/.zarray");
  EXPECT_EQ(note.exit_code, 0) << note.err;
  EXPECT_EQ(note.err,
            "kerchunk unpack: note: 1 of the requested keys have no reference (unwritten chunks "
            "read as the fill value)\n");
  EXPECT_THAT(note.out, HasSubstr("tas/.zarray"));
  auto quiet = RunKerchunk("unpack -q " + ShellQuote(packed) + " --key tas/99.0.0");
  EXPECT_EQ(quiet.exit_code, 0) << quiet.err;
  EXPECT_THAT(quiet.err, IsEmpty());
  EXPECT_EQ(FingerprintOf(packed), before);
}

TEST_F(CliOptionsTest, VerifyRefusesSampleWithoutDeepAndTwoReportsOnStandardOutput) {
  const Fingerprint before = FingerprintOf(Refs());
  auto sample = RunKerchunk("verify " + ShellQuote(Refs()) + " --sample 0.5");
  EXPECT_TRUE(
      FailsWith(sample, "verify", "--sample needs --deep: it chooses the chunks --deep decodes"));
  auto both = RunKerchunk("verify " + ShellQuote(Refs()) + " --format json --junit -");
  EXPECT_TRUE(
      FailsWith(both, "verify",
                "--format json and --junit - both write to standard output; give --junit a file"));
  auto deep = RunKerchunk("verify -q " + ShellQuote(Refs()) + " --deep --sample 0.5");
  EXPECT_EQ(deep.exit_code, 0) << deep.out << deep.err;
  EXPECT_EQ(FingerprintOf(Refs()), before);
}

TEST_F(CliOptionsTest, IdenticalDimsWithNothingToCombineIsNamedInAWarning) {
  auto r = RunKerchunk("scan " + ShellQuote(Series(0)) + " -o " + ShellQuote(Scratch("x.json")) +
                       " --identical-dims lat --check-identical");
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.err, HasSubstr("kerchunk scan: warning: --identical-dims ignored: one file, "
                               "nothing was combined\n"));
  EXPECT_THAT(r.err, HasSubstr("kerchunk scan: warning: --check-identical ignored: one file, "
                               "nothing was combined\n"));
}

// A typo in --identical-dims is found in the first input before the work, not after it.
TEST_F(CliOptionsTest, IdenticalDimsNamingNoVariableIsAUsageError) {
  const std::string out = Scratch("y.json");
  auto scan = RunKerchunk("scan " + ShellQuote(Data().string()) + " -o " + ShellQuote(out) +
                          " --identical-dims lat,nosuch");
  EXPECT_TRUE(
      FailsWith(scan, "scan", "--identical-dims nosuch: no variable of that name in " + Series(0)));
  auto combine = RunKerchunk("combine " + ShellQuote(Refs()) + " " + ShellQuote(Refs()) + " -o " +
                             ShellQuote(out) + " --identical-dims lat,nosuch");
  EXPECT_TRUE(FailsWith(combine, "combine",
                        "--identical-dims nosuch: no variable of that name in " + Refs()));
  EXPECT_FALSE(fs::exists(out));
  // The names are checked against a list read from standard input, which still reaches the scan.
  auto listed =
      RunKerchunk("scan -q --files-from - -o " + ShellQuote(out) +
                  " --identical-dims lat,lon <<'EOF'\n" + Series(1) + "\n" + Series(0) + "\nEOF\n");
  EXPECT_EQ(listed.exit_code, 0) << listed.err;
  auto refs = ReadKerchunkFile(out);
  ASSERT_TRUE(refs.ok()) << refs.status().message();
  EXPECT_EQ(refs->urls.size(), 2u);
}

}  // namespace
}  // namespace kerchunk::testing
