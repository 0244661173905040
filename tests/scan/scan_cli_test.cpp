// `kerchunk scan` and `kerchunk combine` as a user runs them, on generated files: output, exit
// statuses, one-line errors, no file left behind, shards, the kerchunk-scan symlink.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "cli_testing.h"
#include "kerchunk/json/json_value.h"
#include "kerchunk/json/kerchunk_json.h"
#include "kerchunk/util/file_io.h"
#include "support/refs_testing.h"
#include "support/scan_fixtures.h"

namespace kerchunk {
namespace {

namespace fs = std::filesystem;
using testing::FilesIn;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using testing::IsOneLineError;
using testing::RunKerchunk;
using testing::ShellQuote;

class ScanCliTest : public testing::CliTest {
 protected:
  void SetUp() override {
    CliTest::SetUp();
    fs::create_directories(data());
    testing::SeriesSpec spec;
    spec.files = 4;
    spec.times = 3;
    auto paths = testing::WriteSeries(data(), spec);
    ASSERT_TRUE(paths.ok()) << paths.status().message();
    series_ = *paths;
  }
  fs::path data() const { return dir_.path() / "data"; }

  std::vector<std::string> series_;
};

TEST_F(ScanCliTest, ScanWritesAReadableReferenceFileAndASummary) {
  auto r = RunKerchunk("scan " + ShellQuote(data().string()) + " -o " + Out("refs.json"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto refs = ReadKerchunkFile((out() / "refs.json").string());
  ASSERT_TRUE(refs.ok()) << refs.status().message();
  EXPECT_NE(refs->FindEntry(".zgroup"), nullptr);
  EXPECT_EQ(refs->FindArray("tas")->size(), 4u * 3 * 4);
  EXPECT_THAT(r.err, HasSubstr("kerchunk scan: wrote"));
  EXPECT_THAT(r.err, HasSubstr("4 read, 0 skipped"));
  EXPECT_THAT(r.out, IsEmpty());
  EXPECT_THAT(FilesIn(out()), ::testing::ElementsAre("refs.json"));
}

// The native reader (default, in parallel) and --hdf5-library (libhdf5, the oracle) write the
// same index, byte for byte.
TEST_F(ScanCliTest, Hdf5LibraryOptionWritesTheSameIndex) {
  auto native =
      RunKerchunk("scan -q -j 2 " + ShellQuote(data().string()) + " -o " + Out("native.json"));
  ASSERT_EQ(native.exit_code, 0) << native.err;
  auto library = RunKerchunk("scan -q -j 2 --hdf5-library " + ShellQuote(data().string()) + " -o " +
                             Out("library.json"));
  ASSERT_EQ(library.exit_code, 0) << library.err;
  auto a = ReadFileToString((out() / "native.json").string());
  auto b = ReadFileToString((out() / "library.json").string());
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_GT(a->size(), 1000u);
  EXPECT_EQ(*a, *b);
}

TEST_F(ScanCliTest, QuotedPatternIsExpandedByTheProgram) {
  auto r = RunKerchunk("scan -q " + ShellQuote((data() / "day_00[12].nc").string()) +
                       " --format json -o " + Out("refs.json"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto summary = json::Value::Parse(r.out);
  ASSERT_TRUE(summary.ok()) << r.out;
  EXPECT_EQ(summary->Find("read")->as_double(), 2);
  EXPECT_EQ(summary->Find("concat_dim")->as_string(), "time");
  EXPECT_THAT(r.err, IsEmpty());
}

TEST_F(ScanCliTest, ReferencesToStandardOutput) {
  auto r = RunKerchunk("scan -q " + ShellQuote(series_[0]) + " -o -");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto refs = ParseKerchunkJson(r.out);
  ASSERT_TRUE(refs.ok()) << refs.status().message();
  EXPECT_EQ(refs->urls[0], series_[0]);
}

TEST_F(ScanCliTest, FilesFromStandardInput) {
  auto r = RunKerchunk("scan -q --files-from - -o " + Out("refs.json") + " <<'EOF'\n" + series_[2] +
                       "\n" + series_[0] + "\nEOF\n");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto refs = ReadKerchunkFile((out() / "refs.json").string());
  ASSERT_TRUE(refs.ok());
  EXPECT_EQ(refs->FindArray("tas")->size(), 2u * 3 * 4);
}

TEST_F(ScanCliTest, SymlinkNameRunsTheCommand) {
  std::string symlink = (fs::path(testing::KerchunkBinary()).parent_path() / "kerchunk-scan");
  ASSERT_TRUE(fs::exists(symlink)) << symlink;
  auto via_link = testing::RunCommand(ShellQuote(symlink) + " -q " + ShellQuote(data().string()) +
                                      " -o " + Out("a.json"));
  auto via_sub = RunKerchunk("scan -q " + ShellQuote(data().string()) + " -o " + Out("b.json"));
  ASSERT_EQ(via_link.exit_code, 0) << via_link.err;
  ASSERT_EQ(via_sub.exit_code, 0) << via_sub.err;
  EXPECT_EQ(*ReadFileToString((out() / "a.json").string()),
            *ReadFileToString((out() / "b.json").string()));
}

TEST_F(ScanCliTest, HelpShowsExamples) {
  for (const char* command : {"scan", "combine"}) {
    auto r = RunKerchunk(std::string(command) + " --help");
    EXPECT_EQ(r.exit_code, 0) << command;
    EXPECT_THAT(r.out, HasSubstr("Examples:")) << command;
    EXPECT_THAT(r.out, HasSubstr("kerchunk " + std::string(command))) << command;
  }
}

TEST_F(ScanCliTest, MissingFileIsAOneLineErrorAndNothingIsWritten) {
  std::string missing = (data() / "missing.nc").string();
  auto r = RunKerchunk("scan " + ShellQuote(missing) + " -o " + Out("refs.json"));
  EXPECT_TRUE(IsOneLineError(r, "scan", missing));
  EXPECT_THAT(FilesIn(out()), IsEmpty());
}

TEST_F(ScanCliTest, NonHdf5FileIsAOneLineErrorAndNothingIsWritten) {
  std::string text = (data() / "notes.nc").string();
  std::ofstream(text) << "this is not a NetCDF file\n";
  auto r = RunKerchunk("scan " + ShellQuote(series_[0]) + " " + ShellQuote(text) + " -o " +
                       Out("refs.json"));
  EXPECT_TRUE(IsOneLineError(r, "scan", text));
  EXPECT_THAT(r.err, HasSubstr("not an HDF5"));
  EXPECT_THAT(FilesIn(out()), IsEmpty());
}

TEST_F(ScanCliTest, OnErrorSkipWarnsAndListsTheSkippedFile) {
  std::string bad = testing::TruncatedCopy(series_[1], data(), 2000);
  auto r = RunKerchunk("scan --on-error skip " + ShellQuote(data().string()) +
                       " --format json -o " + Out("refs.json"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.err, HasSubstr("kerchunk scan: warning: skipped " + bad));
  auto summary = json::Value::Parse(r.out);
  ASSERT_TRUE(summary.ok()) << r.out;
  ASSERT_EQ(summary->Find("skipped")->as_array().size(), 1u);
  EXPECT_EQ(summary->Find("skipped")->as_array()[0].Find("path")->as_string(), bad);
  EXPECT_EQ(summary->Find("read")->as_double(), 4);
}

// Truncated and byte-flipped copies of generated files: never a crash or a hang; a failure is
// a one-line error naming the copy, with no output or temporary file left; a copy that still
// scans (a flipped data byte, a cut padding byte) has no reference past its end.
TEST_F(ScanCliTest, CorruptCopiesFailCleanlyOrScan) {
  testing::SeriesSpec nc3;
  nc3.netcdf4 = false;
  nc3.files = 1;
  nc3.prefix = "classic";
  auto classic = testing::WriteSeries(data(), nc3);
  ASSERT_TRUE(classic.ok());
  fs::path corrupt = dir_.path() / "corrupt";
  fs::create_directories(corrupt);
  int failures = 0, scans = 0;
  for (const std::string& source : {series_[0], classic->front()}) {
    uint64_t size = fs::file_size(source);
    std::vector<std::string> copies;
    for (uint64_t cut : {uint64_t{0}, uint64_t{7}, uint64_t{100}, size / 3, size / 2, size - 1}) {
      copies.push_back(testing::TruncatedCopy(source, corrupt, cut));
    }
    for (uint64_t at = 0; at < std::min<uint64_t>(size, 4096); at += 97) {
      copies.push_back(testing::FlippedCopy(source, corrupt, at));
    }
    for (const std::string& copy : copies) {
      auto r = RunKerchunk("scan -q " + ShellQuote(copy) + " -o " + Out("refs.json"), 60);
      if (r.exit_code == 0) {
        ++scans;
        EXPECT_TRUE(
            testing::ReferenceFileRangesInside((out() / "refs.json").string(), fs::file_size(copy)))
            << copy;
        fs::remove(out() / "refs.json");
      } else {
        ++failures;
        EXPECT_TRUE(IsOneLineError(r, "scan", copy)) << copy;
      }
      EXPECT_THAT(FilesIn(out()), IsEmpty()) << copy;
      for (const auto& left : FilesIn(out())) fs::remove(out() / left);  // judge each alone
    }
  }
  EXPECT_GT(failures, 12);
  RecordProperty("scanned_despite_flip", scans);
}

TEST_F(ScanCliTest, UsageErrorsExitWithStatusTwo) {
  std::string file = ShellQuote(series_[0]);
  for (const std::string& args : std::vector<std::string>{
           "scan " + file, "scan " + file + " -o x.json --shard 2/2 --concat-dim time",
           "scan " + file + " -o x.json --shard 1/2",
           "scan " + file + " -o x.json --on-error maybe",
           "scan " + file + " -o x.json --rewrite nothing", "scan -o x.json", "combine -o x.json",
           "scan " + file + " -o x.json --bogus"}) {
    auto r = RunKerchunk(args);
    EXPECT_EQ(r.exit_code, 2) << args << "\n" << r.err;
  }
  EXPECT_FALSE(fs::exists("x.json"));
}

// The sharding recipe: every K/N part, then combine, equals one scan of all files.
TEST_F(ScanCliTest, ShardPartsCombineToTheFullScan) {
  std::string common = " -q --concat-dim time --identical-dims lat,lon,crs ";
  auto full =
      RunKerchunk("scan " + ShellQuote(data().string()) + common + "-o " + Out("full.json"));
  ASSERT_EQ(full.exit_code, 0) << full.err;
  for (int n : {2, 3, 5}) {
    for (int k = 0; k < n; ++k) {
      auto part = RunKerchunk("scan " + ShellQuote(data().string()) + common + "--shard " +
                              std::to_string(k) + "/" + std::to_string(n) + " -o " +
                              Out("part-" + std::to_string(k) + ".json"));
      ASSERT_EQ(part.exit_code, 0) << part.err;
    }
    auto merged =
        RunKerchunk("combine -q " + ShellQuote((out() / "part-*.json").string()) +
                    " --concat-dim time --identical-dims lat,lon,crs -o " + Out("merged.json"));
    ASSERT_EQ(merged.exit_code, 0) << merged.err;
    auto a = ReadKerchunkFile((out() / "full.json").string());
    auto b = ReadKerchunkFile((out() / "merged.json").string());
    ASSERT_TRUE(a.ok() && b.ok());
    EXPECT_TRUE(testing::SameReferences(*a, *b)) << n << " shards";
    for (int k = 0; k < n; ++k) fs::remove(out() / ("part-" + std::to_string(k) + ".json"));
  }
}

TEST_F(ScanCliTest, CombineOfANonKerchunkFileIsAOneLineError) {
  std::string bogus = (out() / "bogus.json").string();
  std::ofstream(bogus) << "[1, 2, 3]";
  auto r = RunKerchunk("combine " + ShellQuote(bogus) + " " + ShellQuote(bogus) + " -o " +
                       Out("m.json"));
  EXPECT_TRUE(IsOneLineError(r, "combine", bogus));
  EXPECT_THAT(FilesIn(out()), ::testing::ElementsAre("bogus.json"));
}

}  // namespace
}  // namespace kerchunk
