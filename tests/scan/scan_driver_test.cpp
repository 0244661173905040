// RunScan and RunCombineFiles on generated series, through string streams: single files, combined
// series, shards, file lists, URL rules, error policies and what is (not) left on disk.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "kerchunk/commands/combine_files.h"
#include "kerchunk/commands/scan.h"
#include "kerchunk/json/json_value.h"
#include "kerchunk/json/kerchunk_json.h"
#include "kerchunk/refs/zarr_metadata.h"
#include "kerchunk/util/file_io.h"
#include "support/refs_testing.h"
#include "support/scan_fixtures.h"
#include "support/test_env.h"

namespace kerchunk {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using testing::SameReferences;

// Everything in `dir` (to check that failures leave no file behind).
std::vector<std::string> Listing(const fs::path& dir) {
  std::vector<std::string> names;
  for (const auto& e : fs::directory_iterator(dir)) names.push_back(e.path().filename().string());
  std::sort(names.begin(), names.end());
  return names;
}

class ScanDriverTest : public ::testing::Test {
 protected:
  void SetUp() override {
    fs::create_directories(data());
    fs::create_directories(out());
  }
  fs::path data() const { return dir_.path() / "data"; }
  fs::path out() const { return dir_.path() / "out"; }

  std::vector<std::string> Series(testing::SeriesSpec spec) {
    auto paths = testing::WriteSeries(data(), spec);
    EXPECT_TRUE(paths.ok()) << paths.status().message();
    return paths.ok() ? *paths : std::vector<std::string>{};
  }

  // Runs RunScan writing to out()/name; returns the status and keeps the streams.
  Result<RunSummary> Scan(ScanOptions options, const std::string& name = "refs.json") {
    if (options.output.empty()) options.output = (out() / name).string();
    options.threads = options.threads ? options.threads : 2;
    stdout_.str("");
    stderr_.str("");
    CommandStreams streams{stdin_, stdout_, stderr_};
    return RunScan(options, streams);
  }

  ReferenceSet Read(const std::string& name = "refs.json") {
    auto refs = ReadKerchunkFile((out() / name).string());
    EXPECT_TRUE(refs.ok()) << refs.status().message();
    return refs.ok() ? *std::move(refs) : ReferenceSet();
  }

  Result<RunSummary> Combine(CombineFilesOptions options) {
    stdout_.str("");
    stderr_.str("");
    CommandStreams streams{stdin_, stdout_, stderr_};
    return RunCombineFiles(options, streams);
  }

  std::vector<uint64_t> Shape(const ReferenceSet& refs, const std::string& var) {
    const Entry* zarray = refs.FindEntry(var + "/.zarray");
    if (!zarray) return {};
    auto meta = ZarrArrayMeta::Parse(zarray->value.data);
    return meta.ok() ? meta->shape : std::vector<uint64_t>{};
  }

  testing::TempDir dir_;
  std::istringstream stdin_;
  std::ostringstream stdout_;
  std::ostringstream stderr_;
};

TEST_F(ScanDriverTest, OneFileGivesItsReferencesAsTheyAre) {
  testing::SeriesSpec spec;
  spec.files = 1;
  std::string path = Series(spec).front();
  auto summary = Scan({.inputs = {path}});
  ASSERT_TRUE(summary.ok()) << summary.status().message();
  auto direct = ScanFile(path, path, {});
  ASSERT_TRUE(direct.ok()) << direct.status().message();
  EXPECT_TRUE(SameReferences(Read(), direct->refs));
  EXPECT_EQ(summary->read, 1u);
  EXPECT_EQ(summary->chunks, direct->refs.ChunkCount());
  EXPECT_TRUE(summary->concat_dim.empty());
  EXPECT_THAT(stderr_.str(), HasSubstr("kerchunk scan: wrote"));
  EXPECT_THAT(Listing(out()), ::testing::ElementsAre("refs.json"));
}

TEST_F(ScanDriverTest, SeveralFilesAreConcatenatedAlongTheUnlimitedDimension) {
  testing::SeriesSpec spec;
  spec.files = 3;
  spec.times = 4;
  Series(spec);
  auto summary = Scan({.inputs = {data().string()}});
  ASSERT_TRUE(summary.ok()) << summary.status().message();
  ReferenceSet refs = Read();
  EXPECT_EQ(summary->concat_dim, "time");
  EXPECT_EQ(summary->read, 3u);
  EXPECT_EQ(Shape(refs, "time"), (std::vector<uint64_t>{12}));
  EXPECT_EQ(Shape(refs, "tas"), (std::vector<uint64_t>{12, 6, 8}));
  EXPECT_EQ(Shape(refs, "lat"), (std::vector<uint64_t>{6}));
  // tas: 4 chunks a step; pr: 3 (one never written).
  EXPECT_EQ(refs.FindArray("tas")->size(), 12u * 4);
  EXPECT_EQ(refs.FindArray("pr")->size(), 12u * 3);
}

TEST_F(ScanDriverTest, DefaultConcatDimensionIsTheFirstFilesUnlimitedDimension) {
  testing::SeriesSpec spec;
  spec.time_dim = "record";
  Series(spec);
  auto summary = Scan({.inputs = {data().string()}});
  ASSERT_TRUE(summary.ok()) << summary.status().message();
  EXPECT_EQ(summary->concat_dim, "record");
  EXPECT_EQ(Shape(Read(), "tas")[0], 12u);
}

TEST_F(ScanDriverTest, NetCdf3SeriesIsConcatenatedToo) {
  testing::SeriesSpec spec;
  spec.netcdf4 = false;
  Series(spec);
  auto summary = Scan({.inputs = {(data() / "*.nc").string()}, .combine = {.concat_dim = "time"}});
  ASSERT_TRUE(summary.ok()) << summary.status().message();
  EXPECT_EQ(Shape(Read(), "tas")[0], 12u);
}

// Scanning in K/N shards and combining the parts writes what one scan of every file writes.
TEST_F(ScanDriverTest, ShardPartsCombineToTheFullScan) {
  testing::SeriesSpec spec;
  spec.files = 7;
  spec.times = 2;
  Series(spec);
  CombineOptions combine{.concat_dim = "time", .identical_dims = {"lat", "lon", "crs"}};
  ASSERT_TRUE(Scan({.inputs = {data().string()}, .combine = combine}, "full.json").ok());
  ReferenceSet full = Read("full.json");
  for (size_t n : {1, 2, 3, 7, 9}) {
    CombineFilesOptions merge{.output = (out() / "merged.json").string(), .combine = combine};
    for (size_t k = 0; k < n; ++k) {
      std::string part = "part" + std::to_string(k) + ".json";
      auto summary =
          Scan({.inputs = {data().string()}, .shard = Shard{k, n}, .combine = combine}, part);
      ASSERT_TRUE(summary.ok()) << k << "/" << n << ": " << summary.status().message();
      merge.parts.push_back((out() / part).string());
    }
    auto merged = Combine(merge);
    ASSERT_TRUE(merged.ok()) << n << " shards: " << merged.status().message();
    EXPECT_TRUE(SameReferences(Read("merged.json"), full)) << n << " shards";
    for (const auto& part : merge.parts) fs::remove(part);
  }
}

TEST_F(ScanDriverTest, ShardOfASingleFileListIsThatFilesReferences) {
  testing::SeriesSpec spec;
  spec.files = 1;
  std::string path = Series(spec).front();
  // With one file and two shards, shard 0 is empty ([0, 0)) and shard 1 holds the file.
  auto empty =
      Scan({.inputs = {path}, .shard = Shard{0, 2}, .combine = {.concat_dim = "time"}}, "p0.json");
  ASSERT_TRUE(empty.ok()) << empty.status().message();
  EXPECT_THAT(stderr_.str(), HasSubstr("shard 0/2 holds none of the 1 files"));
  EXPECT_TRUE(Read("p0.json").entries.empty());
  auto part =
      Scan({.inputs = {path}, .shard = Shard{1, 2}, .combine = {.concat_dim = "time"}}, "p1.json");
  ASSERT_TRUE(part.ok()) << part.status().message();
  auto merged = Combine({.parts = {(out() / "p0.json").string(), (out() / "p1.json").string()},
                         .output = (out() / "m.json").string()});
  ASSERT_TRUE(merged.ok()) << merged.status().message();
  auto direct = ScanFile(path, path, {});
  ASSERT_TRUE(direct.ok());
  EXPECT_TRUE(SameReferences(Read("m.json"), direct->refs));
}

TEST_F(ScanDriverTest, ShardNeedsAnExplicitConcatDimension) {
  testing::SeriesSpec spec;
  Series(spec);
  auto summary = Scan({.inputs = {data().string()}, .shard = Shard{0, 2}});
  ASSERT_FALSE(summary.ok());
  EXPECT_EQ(summary.status().code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(summary.status().message(), HasSubstr("--concat-dim"));
  EXPECT_THAT(Listing(out()), IsEmpty());
}

TEST_F(ScanDriverTest, FilesFromStreamAreAddedToTheInputs) {
  testing::SeriesSpec spec;
  auto paths = Series(spec);
  stdin_.str(paths[1] + "\n" + paths[2] + "\n\n");
  auto summary = Scan({.inputs = {paths[0]}, .files_from = "-"});
  ASSERT_TRUE(summary.ok()) << summary.status().message();
  EXPECT_EQ(summary->read, 3u);
}

TEST_F(ScanDriverTest, UrlPrefixRewriteAndTemplatesNameTheFiles) {
  testing::SeriesSpec spec;
  spec.files = 2;
  Series(spec);
  auto summary = Scan({.inputs = {data().string()},
                       .rewrites = {{data().string(), "s3://bucket/series"}},
                       .write = {.templates = true}});
  ASSERT_TRUE(summary.ok()) << summary.status().message();
  ReferenceSet refs = Read();
  std::vector<std::string> urls;
  for (uint32_t id = 0; id < refs.urls.size(); ++id) urls.push_back(refs.urls[id]);
  EXPECT_THAT(urls, ::testing::IsSupersetOf(
                        {"s3://bucket/series/day_000.nc", "s3://bucket/series/day_001.nc"}));
  auto text = ReadFileToString((out() / "refs.json").string());
  ASSERT_TRUE(text.ok());
  EXPECT_THAT(*text, HasSubstr("\"templates\""));
  EXPECT_THAT(*text, HasSubstr("{{u"));
}

TEST_F(ScanDriverTest, FileOutsideTheRewriteRulesIsAnError) {
  testing::SeriesSpec spec;
  spec.files = 1;
  Series(spec);
  auto summary = Scan({.inputs = {data().string()}, .rewrites = {{"/nowhere", "s3://b"}}});
  ASSERT_FALSE(summary.ok());
  EXPECT_THAT(summary.status().message(), HasSubstr("day_000.nc"));
  EXPECT_THAT(Listing(out()), IsEmpty());
}

TEST_F(ScanDriverTest, ReferencesToStandardOutputAndJsonSummaryToStandardError) {
  testing::SeriesSpec spec;
  spec.files = 1;
  std::string path = Series(spec).front();
  auto summary = Scan({.inputs = {path}, .output = "-", .summary_format = SummaryFormat::kJson});
  ASSERT_TRUE(summary.ok()) << summary.status().message();
  auto refs = ParseKerchunkJson(stdout_.str());
  ASSERT_TRUE(refs.ok()) << refs.status().message();
  EXPECT_EQ(refs->ChunkCount(), summary->chunks);
  auto json = json::Value::Parse(stderr_.str());
  ASSERT_TRUE(json.ok()) << stderr_.str();
  EXPECT_EQ(json->Find("output")->as_string(), "-");
}

TEST_F(ScanDriverTest, JsonSummaryGoesToStandardOutputWhenWritingAFile) {
  testing::SeriesSpec spec;
  spec.files = 1;
  std::string path = Series(spec).front();
  auto summary = Scan({.inputs = {path}, .summary_format = SummaryFormat::kJson});
  ASSERT_TRUE(summary.ok());
  auto json = json::Value::Parse(stdout_.str());
  ASSERT_TRUE(json.ok()) << stdout_.str();
  EXPECT_EQ(json->Find("read")->as_double(), 1);
  EXPECT_THAT(stderr_.str(), IsEmpty());
}

TEST_F(ScanDriverTest, BadFileFailsTheRunNamingItAndLeavesNothing) {
  testing::SeriesSpec spec;
  Series(spec);
  std::string bad = (data() / "day_001.nc").string();
  fs::resize_file(bad, 3000);
  auto summary = Scan({.inputs = {data().string()}});
  ASSERT_FALSE(summary.ok());
  EXPECT_THAT(summary.status().message(), HasSubstr(bad));
  EXPECT_EQ(summary.status().message().find('\n'), std::string::npos);
  EXPECT_THAT(Listing(out()), IsEmpty());
}

TEST_F(ScanDriverTest, OnErrorSkipLeavesTheBadFileOutAndListsIt) {
  testing::SeriesSpec spec;
  Series(spec);
  std::string bad = (data() / "day_001.nc").string();
  fs::resize_file(bad, 3000);
  auto summary = Scan({.inputs = {data().string()}, .on_error = OnError::kSkip});
  ASSERT_TRUE(summary.ok()) << summary.status().message();
  EXPECT_EQ(summary->read, 2u);
  ASSERT_EQ(summary->skipped.size(), 1u);
  EXPECT_EQ(summary->skipped[0].path, bad);
  EXPECT_THAT(stderr_.str(), HasSubstr("warning: skipped " + bad));
  EXPECT_EQ(Shape(Read(), "tas")[0], 8u);
}

TEST_F(ScanDriverTest, OnErrorSkipStillFailsWhenNothingCouldBeRead) {
  std::string bad = (data() / "bad.nc").string();
  std::ofstream(bad) << "CDF\x01 but nothing else";
  auto summary = Scan({.inputs = {bad}, .on_error = OnError::kSkip});
  ASSERT_FALSE(summary.ok());
  EXPECT_THAT(summary.status().message(), HasSubstr("none of the 1 files"));
  EXPECT_THAT(summary.status().message(), HasSubstr(bad));
}

TEST_F(ScanDriverTest, NoInputAndEmptyFolderAreUsageErrors) {
  auto none = Scan({});
  ASSERT_FALSE(none.ok());
  EXPECT_EQ(none.status().code(), StatusCode::kInvalidArgument);
  auto empty = Scan({.inputs = {data().string()}});
  ASSERT_FALSE(empty.ok());
  EXPECT_THAT(empty.status().message(), HasSubstr("no HDF5"));
  EXPECT_THAT(Listing(out()), IsEmpty());
}

TEST_F(ScanDriverTest, MissingOutputFolderFailsBeforeScanning) {
  testing::SeriesSpec spec;
  spec.files = 1;
  std::string path = Series(spec).front();
  auto summary = Scan({.inputs = {path}, .output = (out() / "no" / "such" / "x.json").string()});
  ASSERT_FALSE(summary.ok());
  EXPECT_THAT(summary.status().message(), HasSubstr("no/such/x.json"));
}

TEST_F(ScanDriverTest, CombineRejectsAPartThatIsNotKerchunkNamingIt) {
  std::string bogus = (out() / "bogus.json").string();
  std::ofstream(bogus) << "{\"version\": 1, \"refs\": [1, 2]}";
  auto merged = Combine({.parts = {bogus}, .output = (out() / "m.json").string()});
  ASSERT_FALSE(merged.ok());
  EXPECT_THAT(merged.status().message(), HasSubstr(bogus));
  EXPECT_THAT(Listing(out()), ::testing::ElementsAre("bogus.json"));
}

}  // namespace
}  // namespace kerchunk
