// Source identity: `kerchunk scan` records each referenced file's size and modification time
// in the top-level "kerchunk_sources" member (first in the document), `kerchunk combine` keeps
// the parts' records, and `verify --files` reports a file rewritten after the scan (exit 1).
// With `scan --checksum` the record also holds a hash of each file's unreferenced (metadata)
// bytes, which catches a rewrite that kept size and modification time.
#include <fcntl.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>

#include "kerchunk/json/kerchunk_json.h"
#include "kerchunk/pack/packed_index.h"
#include "kerchunk/refs/digest.h"
#include "kerchunk/refs/source_record.h"
#include "kerchunk/util/file_io.h"
#include "support/packed_fixtures.h"
#include "verify/verify_testing.h"

namespace kerchunk::testing {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;
using ::testing::Not;

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

// The record holds the modification time to the nanosecond, as the scan's own open of the file
// saw it (not a stat after the run, which would describe a file replaced meanwhile).
TEST_F(SourceIdentityTest, RecordHasTheTimeToTheNanosecond) {
  const timespec times[2] = {{0, UTIME_OMIT}, {1'700'000'000, 123'456'789}};
  ASSERT_EQ(::utimensat(AT_FDCWD, paths_[0].c_str(), times, 0), 0);
  auto record = ReadSourceRecord(Scan("refs.json"));
  ASSERT_TRUE(record.ok() && record->has_value());
  EXPECT_EQ((**record)[0].mtime_ns, 1'700'000'000'123'456'789);
  EXPECT_EQ((**record)[0].size, fs::file_size(paths_[0]));
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
  auto packed_record = pack::ReadIndexSourceRecord(packed);
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

// The checksum by its definition, written out independently of source_checksum.cpp: a byte
// mask of every referenced range, the unmasked bytes concatenated in file order, XXH3-64.
uint64_t UnreferencedBytesHash(const std::string& refs_path, const std::string& url,
                               const std::string& file) {
  auto refs = ReadKerchunkFile(refs_path);
  auto bytes = ReadFileToString(file);
  EXPECT_TRUE(refs.ok() && bytes.ok());
  std::vector<bool> referenced(bytes->size(), false);
  auto mark = [&](uint64_t offset, uint64_t length) {
    for (uint64_t b = offset; b < offset + length && b < bytes->size(); ++b) referenced[b] = true;
  };
  const uint32_t id = *refs->urls.Find(url);
  for (const ArrayRefs& array : refs->arrays) {
    for (size_t i = 0; i < array.size(); ++i) {
      if (array.urls()[i] == id) mark(array.offsets()[i], array.lengths()[i]);
    }
  }
  for (const Entry& e : refs->entries) {
    if (e.value.kind == EntryValue::Kind::kRange && e.value.url == id) {
      mark(e.value.offset, e.value.length);
    }
  }
  std::string rest;
  for (size_t b = 0; b < bytes->size(); ++b) {
    if (!referenced[b]) rest.push_back((*bytes)[b]);
  }
  EXPECT_LT(rest.size(), bytes->size());  // the file has references, so this is a real test
  return Xxh3(rest);
}

TEST_F(SourceIdentityTest, ChecksumIsTheHashOfTheUnreferencedBytes) {
  const std::string refs = Scan("refs.json", " --checksum");
  auto record = ReadSourceRecord(refs);
  ASSERT_TRUE(record.ok() && record->has_value()) << record.status().message();
  ASSERT_EQ((*record)->size(), paths_.size());
  for (size_t i = 0; i < paths_.size(); ++i) {
    ASSERT_TRUE((**record)[i].metadata_xxh3.has_value());
    EXPECT_EQ(*(**record)[i].metadata_xxh3, UnreferencedBytesHash(refs, paths_[i], paths_[i]));
  }
  auto text = ReadFileToString(refs);
  EXPECT_THAT(
      *text, HasSubstr(fmt::format("\"metadata_xxh3\":\"{:016x}\"", *(**record)[0].metadata_xxh3)));
  EXPECT_EQ(RunVerify(ShellQuote(refs) + " --files").exit_code, 0);
  // Without the option no checksum is recorded.
  auto plain = ReadSourceRecord(Scan("plain.json"));
  EXPECT_FALSE((**plain)[0].metadata_xxh3.has_value());
}

// A file regenerated in place with other attributes, whose copy kept size and modification
// time: only the checksum tells.
TEST_F(SourceIdentityTest, ChecksumCatchesARewriteThatKeptSizeAndTime) {
  const std::string refs = Scan("refs.json", " --checksum");
  const std::string packed = dir_ / "refs.packed.json";
  ASSERT_EQ(RunKerchunk("pack", ShellQuote(refs) + " -o " + ShellQuote(packed)).exit_code, 0);
  const std::string plain = Scan("plain.json");
  std::vector<fs::file_time_type> times;
  for (const auto& p : paths_) times.push_back(fs::last_write_time(p));
  PackedSeriesSpec spec;
  spec.add_offset = {240.0};
  ASSERT_TRUE(WritePackedSeries(dir_.path(), spec).ok());
  for (size_t i = 0; i < paths_.size(); ++i) fs::last_write_time(paths_[i], times[i]);
  auto record = ReadSourceRecord(refs);
  ASSERT_TRUE(record.ok() && record->has_value());
  ASSERT_EQ(RecordSourceFile(paths_[1], paths_[1])->size, (**record)[1].size);

  CommandResult r = RunVerify(ShellQuote(refs) + " --files");
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_THAT(r.out, HasSubstr(fmt::format(
                         "files: {}: changed since the scan: the bytes outside the referenced "
                         "ranges (the file's metadata) hash to {:016x}, the scan recorded "
                         "{:016x}, although size and modification time are the same",
                         paths_[1], UnreferencedBytesHash(refs, paths_[1], paths_[1]),
                         *(**record)[1].metadata_xxh3)));
  EXPECT_EQ(RunVerify(ShellQuote(packed) + " --files").exit_code, 1);
  // Size and time alone cannot tell.
  EXPECT_EQ(RunVerify(ShellQuote(plain) + " --files").exit_code, 0);
}

// Files scanned one by one with --checksum: the combined index references fewer bytes of each
// file (the time coordinate, a byte range in each part, is stored inline), so combine recomputes
// the checksums, which then equal those of one scan of every file; a file changed since its part
// was scanned keeps the part's record, with a warning, and verify reports it.
TEST_F(SourceIdentityTest, CombineRecomputesChecksumsOfUnchangedFiles) {
  std::vector<std::string> parts;
  for (size_t k = 0; k < paths_.size(); ++k) {
    parts.push_back(dir_ / fmt::format("part-{}.json", k));
    CommandResult scan = RunKerchunk(
        "scan", "-q --checksum " + ShellQuote(paths_[k]) + " -o " + ShellQuote(parts.back()));
    ASSERT_EQ(scan.exit_code, 0) << scan.err;
  }
  std::string quoted;
  for (const auto& p : parts) quoted += " " + ShellQuote(p);
  const std::string merged = dir_ / "merged.json";
  CommandResult r = RunKerchunk("combine", quoted + " -o " + ShellQuote(merged));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.err, Not(HasSubstr("checksum")));
  auto merged_record = ReadSourceRecord(merged);
  auto full_record = ReadSourceRecord(Scan("full.json", " --checksum"));
  ASSERT_TRUE(merged_record.ok() && full_record.ok());
  EXPECT_EQ(*merged_record, *full_record);

  const auto time = fs::last_write_time(paths_[0]);
  PackedSeriesSpec spec;
  spec.add_offset = {240.0};
  ASSERT_TRUE(WritePackedSeries(dir_.path(), spec).ok());
  fs::last_write_time(paths_[0], time);
  const std::string stale = dir_ / "stale.json";
  r = RunKerchunk("combine", quoted + " -o " + ShellQuote(stale));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.err, HasSubstr(paths_[0] + ": changed since " + parts[0] +
                               " was scanned (its metadata checksum differs)"));
  auto stale_record = ReadSourceRecord(stale);
  EXPECT_EQ((**stale_record)[0], (**ReadSourceRecord(parts[0]))[0]);
  CommandResult v = RunVerify(ShellQuote(stale) + " --files");
  EXPECT_EQ(v.exit_code, 1) << v.out;
  EXPECT_THAT(v.out, HasSubstr("files: " + paths_[0] + ": changed since the scan"));
}

TEST_F(SourceIdentityTest, MalformedChecksumIsADocumentProblem) {
  const std::string refs = dir_ / "bad.json";
  ASSERT_TRUE(WriteFileAtomically(refs, R"({"kerchunk_sources":{"files":[{"url":"x","size":1,)"
                                        R"("mtime_ns":2,"metadata_xxh3":12}]},)"
                                        R"("version":1,"refs":{".zgroup":"{\"zarr_format\":2}"}})")
                  .ok());
  CommandResult r = RunVerify(ShellQuote(refs));
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_THAT(r.out, HasSubstr("\"metadata_xxh3\" must be 16 lowercase hex digits, got 12"));
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
