// The native HDF5 translator against the libhdf5-based one (the oracle) on every HDF5 file of
// the shared corpus: the same Kerchunk JSON (every key, every .zarray/.zattrs text, every
// reference), the same warnings, unlimited dimensions and referenced bytes, or both failing.
// The native side runs without fallback (Hdf5Reader::kNativeOnly); a file it hands to libhdf5
// fails here with the reason, so the count of fallbacks on the corpus is zero by test.
#include <gtest/gtest.h>

#include <string>

#include "golden/hdf5_corpus_files.h"
#include "kerchunk/json/kerchunk_json.h"
#include "kerchunk/scan/file_scan.h"
#include "native_oracle_check.h"

namespace kerchunk::testing {
namespace {

class NativeOracleCorpusTest : public ::testing::TestWithParam<std::string> {
 protected:
  std::string Path() const { return (*SharedDir() / GetParam()).string(); }
};

TEST_P(NativeOracleCorpusTest, DefaultPolicyMatchesLibhdf5) {
  ExpectNativeMatchesLibrary(Path(), GetParam(), FileScanOptions{});
}

TEST_P(NativeOracleCorpusTest, SkipPolicyMatchesLibhdf5) {
  FileScanOptions options;
  options.on_unsupported = OnUnsupported::kSkip;
  ExpectNativeMatchesLibrary(Path(), GetParam(), options);
}

TEST_P(NativeOracleCorpusTest, InlineThresholdMatchesLibhdf5) {
  FileScanOptions options;
  options.on_unsupported = OnUnsupported::kSkip;
  options.inline_threshold = 500;
  ExpectNativeMatchesLibrary(Path(), GetParam(), options);
}

INSTANTIATE_TEST_SUITE_P(Corpus, NativeOracleCorpusTest, ::testing::ValuesIn(Hdf5CorpusFiles()),
                         [](const auto& param_info) { return CorpusTestName(param_info.param); });
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(NativeOracleCorpusTest);

}  // namespace
}  // namespace kerchunk::testing
