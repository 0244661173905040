// Throughput of the structure and files checks on a synthetic time-series index (refs/s), as
// issue #4 asks (>= 5 M refs/s). The data files are sparse files of the right sizes, so the
// files check runs for real. The result is checked before the time is reported.
//
// KERCHUNK_VERIFY_SPEED_CHUNKS sets the spatial chunk side (default 90: ~0.6 M references;
// 20 gives ~3 M, 14 ~6 M).
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <thread>

#include "kerchunk/bench/synthetic_refs.h"
#include "kerchunk/json/kerchunk_json.h"
#include "kerchunk/verify/verify.h"
#include "support/test_env.h"

namespace kerchunk::verify {
namespace {

namespace fs = std::filesystem;

constexpr std::string_view kBucket = "s3://climate-reanalysis-archive";

double Seconds(std::chrono::steady_clock::time_point since) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - since).count();
}

// Sparse local copies of every file the index names, each as long as its last range.
void MakeSparseFiles(const ReferenceSet& refs, const fs::path& root) {
  std::map<uint32_t, uint64_t> ends;
  for (const ArrayRefs& a : refs.arrays) {
    for (size_t i = 0; i < a.size(); ++i) {
      if (a.urls()[i] > ArrayRefs::kMaxUrlId) continue;
      uint64_t& end = ends[a.urls()[i]];
      end = std::max(end, a.offsets()[i] + a.lengths()[i]);
    }
  }
  for (const auto& [url, end] : ends) {
    const std::string& name = refs.urls[url];
    ASSERT_TRUE(name.starts_with(kBucket)) << name;
    const fs::path path = root / name.substr(kBucket.size() + 1);
    fs::create_directories(path.parent_path());
    { std::ofstream touch(path); }
    fs::resize_file(path, end);
  }
}

TEST(VerifySpeedTest, StructureAndFilesChecks) {
  SyntheticRefsOptions synthetic;
  const char* side = std::getenv("KERCHUNK_VERIFY_SPEED_CHUNKS");
  const uint64_t chunk = side ? std::strtoull(side, nullptr, 10) : 90;
  synthetic.spatial_chunks = {chunk, 2 * chunk};
  const ReferenceSet refs = SyntheticReferenceSet(synthetic);
  const uint64_t count = refs.ChunkCount();

  testing::TempDir dir;
  MakeSparseFiles(refs, dir.path());
  const std::string json = dir / "refs.json";
  ASSERT_TRUE(WriteKerchunkFile(refs, json).ok());

  VerifyOptions options;
  options.input = json;
  options.files = FilesMode::kOn;
  options.quiet = true;
  options.rewrites.push_back({std::string(kBucket), dir.path().string()});

  auto start = std::chrono::steady_clock::now();
  Result<ReferenceSet> read = ReadKerchunkFile(json);
  const double read_seconds = Seconds(start);
  ASSERT_TRUE(read.ok());

  start = std::chrono::steady_clock::now();
  Result<Report> report = VerifyReferences(*read, options);
  const double check_seconds = Seconds(start);
  ASSERT_TRUE(report.ok()) << report.status().ToString();
  // The result first: every reference was examined by each check and all of them pass.
  EXPECT_TRUE(report->passed());
  EXPECT_EQ(report->Examined(Check::kRanges), count);
  EXPECT_EQ(report->Examined(Check::kFiles), count);
  EXPECT_EQ(report->Skipped(Check::kFiles), 0u);

  // A broken copy must fail the same run: one range past its file's end.
  ReferenceSet broken = *std::move(read);
  fs::resize_file(dir.path() / refs.urls[0].substr(kBucket.size() + 1), 10);
  Result<Report> failing = VerifyReferences(broken, options);
  ASSERT_TRUE(failing.ok());
  EXPECT_FALSE(failing->passed());

  fmt::print(
      "verify speed: {} references in {} files: read JSON {:.3f} s ({:.2f} M refs/s); "
      "structure + files checks {:.3f} s ({:.2f} M refs/s, {} threads)\n",
      count, refs.urls.size(), read_seconds, count / read_seconds / 1e6, check_seconds,
      count / check_seconds / 1e6, std::thread::hardware_concurrency());
}

}  // namespace
}  // namespace kerchunk::verify
