// Decode check: every byte-valued array of the translation fixture (and of some corpus files),
// assembled from its references by a hand-written zarr reader, equals libhdf5's H5Dread.
#include <gtest/gtest.h>

#include <string>

#include "hdf5_translate/array_decoder.h"
#include "hdf5_translate/translator_fixture.h"

namespace kerchunk::testing {
namespace {

TEST(TranslatorDecode, FixtureArraysDecodeToTheLibrarysValues) {
  const TranslatedFixture& f = Translated();
  // temp, x, y, be_int16, fixed_str, scalar, compact, fletcher, unwritten, never_written, bools,
  // time.
  EXPECT_EQ(ExpectArraysDecodeLikeLibrary(f.result.refs, f.path), 12);
}

TEST(TranslatorDecode, InlineThresholdKeepsTheBytes) {
  const TranslatedFixture& f = Translated();
  FileScanOptions options;
  options.on_unsupported = OnUnsupported::kSkip;
  options.inline_threshold = 1000;  // every chunk of the fixture
  auto result = ScanHdf5File(f.path, "translate.h5", options);
  ASSERT_TRUE(result.ok()) << result.status().ToString();
  for (const ArrayRefs& a : result->refs.arrays) {
    for (size_t i = 0; i < a.size(); ++i) EXPECT_EQ(a.Get(i).kind, RefKind::kInline) << a.path();
  }
  EXPECT_EQ(result->referenced_bytes, 0u);
  EXPECT_EQ(ExpectArraysDecodeLikeLibrary(result->refs, f.path), 12);
}

// Real files with deflate, shuffle, fletcher32, big-endian data and every index type.
TEST(TranslatorDecode, CorpusFilesDecodeToTheLibrarysValues) {
  KERCHUNK_SKIP_WITHOUT_SHARED_DATA();
  for (const char* rel :
       {"data/index_types/jhdf/chunked_v4_datasets.hdf5",
        "data/index_types/jhdf/fletcher32_datasets_latest.hdf5",
        "data/index_types/jhdf/test_byteshuffle_compressed_datasets_earliest.hdf5",
        "data/real_netcdf4/geocat/nc4uvt.nc", "data/index_types/hdf5/tdset2.h5"}) {
    const std::string path = (*SharedDir() / rel).string();
    auto result = ScanHdf5File(path, rel, FileScanOptions{});
    ASSERT_TRUE(result.ok()) << result.status().ToString();
    EXPECT_GT(ExpectArraysDecodeLikeLibrary(result->refs, path), 0) << rel;
  }
}

}  // namespace
}  // namespace kerchunk::testing
