// Source identity: `kerchunk scan` records each referenced file's size and modification time
// in the top-level "kerchunk_sources" member (first in the document), `kerchunk combine` keeps
// the parts' records, and `verify --files` reports a file rewritten after the scan (exit 1).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>

#include "kerchunk/refs/source_record.h"
#include "kerchunk/util/file_io.h"
#include "support/packed_fixtures.h"
#include "verify/verify_testing.h"

namespace kerchunk::testing {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

class SourceIdentityTest : public ::testing::Test {
 protected:
  void SetUp() override {
    PackedSeriesSpec spec;
    auto paths = WritePackedSeries(dir_.path(), spec);
    ASSERT_TRUE(paths.ok()) << paths.status().message();
    paths_ = *paths;
    for (const auto& p : paths_) inputs_ += " " + ShellQuote(p);
  }
  std::string Scan(const std::string& name, const std::string& options = "") {
    const std::string refs = dir_ / name;
    CommandResult r = RunKerchunk("scan", "-q" + inputs_ + options + " -o " + ShellQuote(refs));
    EXPECT_EQ(r.exit_code, 0) << r.err;
    return refs;
  }

  TempDir dir_;
  std::vector<std::string> paths_;
  std::string inputs_;
};

TEST_F(SourceIdentityTest, ScanRecordsEveryFileFirstInTheDocument) {
  const std::string refs = Scan("refs.json");
  auto text = ReadFileToString(refs);
  ASSERT_TRUE(text.ok());
  EXPECT_TRUE(text->starts_with("{\"kerchunk_sources\":{\"files\":[{\"url\":")) << *text;
  auto record = ReadSourceRecord(refs);
  ASSERT_TRUE(record.ok()) << record.status().message();
  ASSERT_TRUE(record->has_value());
  ASSERT_EQ((*record)->size(), paths_.size());
  for (size_t i = 0; i < paths_.size(); ++i) {
    EXPECT_EQ((**record)[i], *RecordSourceFile(paths_[i], paths_[i]));
  }
  CommandResult r = RunVerify(ShellQuote(refs) + " --files");
  EXPECT_EQ(r.exit_code, 0) << r.out;
}

TEST_F(SourceIdentityTest, FileRewrittenAfterTheScanFailsTheFilesCheck) {
  const std::string refs = Scan("refs.json");
  auto record = ReadSourceRecord(refs);
  ASSERT_TRUE(record.ok() && record->has_value());
  const SourceFileRecord before = (**record)[1];
  // Same name and size, other values and time: every byte range still lies inside the file.
  PackedSeriesSpec spec;
  spec.add_offset = {240.0};
  ASSERT_TRUE(WritePackedSeries(dir_.path(), spec).ok());
  fs::last_write_time(paths_[1], fs::last_write_time(paths_[1]) + std::chrono::seconds(5));
  auto now = *RecordSourceFile(paths_[1], paths_[1]);
  CommandResult r = RunVerify(ShellQuote(refs) + " --files");
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_THAT(r.out, HasSubstr(fmt::format(
                         "files: {}: changed since the scan: {} bytes, modified {} (the scan "
                         "recorded {} bytes, modified {})",
                         paths_[1], now.size, FormatMtime(now.mtime_ns), before.size,
                         FormatMtime(before.mtime_ns))));
  EXPECT_THAT(r.out, HasSubstr("FAILED: 3 problems (files 3)"));  // every file was rewritten
}

// kerchunk pack copies the record into the packed file, verify of the packed index checks it,
// and kerchunk unpack writes it back.
TEST_F(SourceIdentityTest, PackedIndexCarriesTheRecord) {
  const std::string refs = Scan("refs.json");
  const std::string packed = dir_ / "refs.packed.json";
  CommandResult pack = RunKerchunk("pack", ShellQuote(refs) + " -o " + ShellQuote(packed));
  ASSERT_EQ(pack.exit_code, 0) << pack.err;
  auto json_record = ReadSourceRecord(refs);
  auto packed_record = ReadSourceRecord(packed);
  ASSERT_TRUE(json_record.ok() && packed_record.ok()) << packed_record.status().message();
  ASSERT_TRUE(packed_record->has_value());
  EXPECT_EQ(*json_record, *packed_record);
  EXPECT_EQ(RunVerify(ShellQuote(packed) + " --files").exit_code, 0);
  // unpack writes it back first in the Kerchunk JSON, where scan wrote it.
  const std::string unpacked = dir_ / "refs.unpacked.json";
  CommandResult unpack = RunKerchunk("unpack", ShellQuote(packed) + " -o " + ShellQuote(unpacked));
  ASSERT_EQ(unpack.exit_code, 0) << unpack.err;
  auto unpacked_record = ReadSourceRecord(unpacked);
  ASSERT_TRUE(unpacked_record.ok());
  EXPECT_EQ(*json_record, *unpacked_record);
  fs::last_write_time(paths_[2], fs::last_write_time(paths_[2]) + std::chrono::seconds(5));
  CommandResult r = RunVerify(ShellQuote(packed) + " --files");
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_THAT(r.out, HasSubstr("files: " + paths_[2] + ": changed since the scan: "));
}

TEST_F(SourceIdentityTest, CombineKeepsTheRecordsOfItsParts) {
  std::string parts;
  for (int k = 0; k < 2; ++k) {
    parts += " " + ShellQuote(Scan(fmt::format("part-{}.json", k),
                                   fmt::format(" --concat-dim time --shard {}/2", k)));
  }
  const std::string merged = dir_ / "merged.json";
  CommandResult r = RunKerchunk("combine", "-q" + parts + " -o " + ShellQuote(merged));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto merged_record = ReadSourceRecord(merged);
  auto full_record = ReadSourceRecord(Scan("full.json"));
  ASSERT_TRUE(merged_record.ok() && full_record.ok());
  EXPECT_EQ(*merged_record, *full_record);
}

TEST_F(SourceIdentityTest, MalformedRecordIsADocumentProblem) {
  const std::string refs = dir_ / "bad.json";
  ASSERT_TRUE(WriteFileAtomically(refs, R"({"kerchunk_sources":{"files":[{"url":"x"}]},)"
                                        R"("version":1,"refs":{".zgroup":"{\"zarr_format\":2}"}})")
                  .ok());
  CommandResult r = RunVerify(ShellQuote(refs));
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_THAT(r.out, HasSubstr("\"kerchunk_sources\": expected {\"url\", \"size\", \"mtime_ns\"}"));
}

}  // namespace
}  // namespace kerchunk::testing
