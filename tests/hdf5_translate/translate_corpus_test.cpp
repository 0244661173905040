// Every HDF5 file of the shared corpus either translates or fails with a clean one-line
// Unsupported/DataLoss message naming the file under the default policy, and translates under
// OnUnsupported::kSkip. Under kInline it may also fail (data too large, or libhdf5 lacks the
// filter plugin), but again only cleanly.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <filesystem>

#include "golden/hdf5_corpus_files.h"
#include "kerchunk/scan/file_scan.h"

namespace kerchunk::testing {
namespace {

using ::testing::StartsWith;

class TranslateCorpusTest : public ::testing::TestWithParam<std::string> {
 protected:
  std::string Path() const { return (*SharedDir() / GetParam()).string(); }

  void ExpectCleanFailure(const Status& status) const {
    EXPECT_TRUE(status.code() == StatusCode::kUnsupported || status.code() == StatusCode::kDataLoss)
        << status.ToString();
    EXPECT_THAT(status.message(), StartsWith(Path() + ": "));
    EXPECT_EQ(status.message().find('\n'), std::string::npos) << status.message();
  }
};

TEST_P(TranslateCorpusTest, DefaultPolicyTranslatesOrFailsCleanly) {
  auto result = ScanHdf5File(Path(), GetParam(), FileScanOptions{});
  if (!result.ok()) ExpectCleanFailure(result.status());
}

TEST_P(TranslateCorpusTest, SkipPolicyTranslates) {
  FileScanOptions options;
  options.on_unsupported = OnUnsupported::kSkip;
  auto result = ScanHdf5File(Path(), GetParam(), options);
  ASSERT_TRUE(result.ok()) << result.status().ToString();
  EXPECT_NE(result->refs.FindEntry(".zgroup"), nullptr);
}

TEST_P(TranslateCorpusTest, InlinePolicyTranslatesOrFailsCleanly) {
  FileScanOptions options;
  options.on_unsupported = OnUnsupported::kInline;
  auto result = ScanHdf5File(Path(), GetParam(), options);
  if (!result.ok()) ExpectCleanFailure(result.status());
}

// Throughput over the whole corpus (skip policy, so every file translates): files/s and refs/s,
// printed for the record. Each file is translated once untimed first, so the timing is of a
// warm page cache and of results already checked to be complete.
TEST(TranslateCorpusSpeed, FilesAndReferencesPerSecond) {
  KERCHUNK_SKIP_WITHOUT_SHARED_DATA();
  FileScanOptions options;
  options.on_unsupported = OnUnsupported::kSkip;
  const auto files = Hdf5CorpusFiles();
  for (const std::string& f : files) {
    ASSERT_TRUE(ScanHdf5File((*SharedDir() / f).string(), f, options).ok()) << f;
  }
  uint64_t refs = 0, bytes = 0;
  const auto start = std::chrono::steady_clock::now();
  for (const std::string& f : files) {
    auto result = ScanHdf5File((*SharedDir() / f).string(), f, options);
    ASSERT_TRUE(result.ok());
    refs += result->refs.ChunkCount();
    bytes += std::filesystem::file_size(*SharedDir() / f);
  }
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::printf("%zu files (%.1f MB), %llu chunk references in %.2f s: %.0f files/s, %.0f refs/s\n",
              files.size(), bytes / 1e6, static_cast<unsigned long long>(refs), s, files.size() / s,
              refs / s);
}

INSTANTIATE_TEST_SUITE_P(Corpus, TranslateCorpusTest, ::testing::ValuesIn(Hdf5CorpusFiles()),
                         [](const auto& param_info) { return CorpusTestName(param_info.param); });
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(TranslateCorpusTest);

}  // namespace
}  // namespace kerchunk::testing
