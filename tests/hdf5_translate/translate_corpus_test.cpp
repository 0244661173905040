// Every HDF5 file of the shared corpus either translates or fails with a clean one-line
// Unsupported/DataLoss message naming the file under the default policy, and translates under
// OnUnsupported::kSkip. Under kInline it may also fail (data too large, or libhdf5 lacks the
// filter plugin), but again only cleanly.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

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

INSTANTIATE_TEST_SUITE_P(Corpus, TranslateCorpusTest, ::testing::ValuesIn(Hdf5CorpusFiles()),
                         [](const auto& info) { return CorpusTestName(info.param); });
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(TranslateCorpusTest);

}  // namespace
}  // namespace kerchunk::testing
