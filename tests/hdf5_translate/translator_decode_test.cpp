// Decode check: every byte-valued array of the translation fixture (and of some corpus files),
// assembled from its references by a hand-written zarr reader, equals libhdf5's H5Dread.
#include <gtest/gtest.h>
#include <hdf5.h>

#include <string>

#include "hdf5_translate/array_decoder.h"
#include "hdf5_translate/translator_fixture.h"

namespace kerchunk::testing {
namespace {

// The dataset's values in its file type (no conversion), and its fill value's bytes.
struct LibraryView {
  std::string values;
  std::string fill;
};

LibraryView ReadWithLibrary(const std::string& file_path, const std::string& dataset) {
  LibraryView view;
  hid_t f = H5Fopen(file_path.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  hid_t d = H5Dopen2(f, dataset.c_str(), H5P_DEFAULT);
  hid_t t = H5Dget_type(d), s = H5Dget_space(d), p = H5Dget_create_plist(d);
  const size_t item = H5Tget_size(t);
  view.values.assign(item * static_cast<size_t>(H5Sget_simple_extent_npoints(s)), '\0');
  view.fill.assign(item, '\0');
  EXPECT_GE(H5Dread(d, t, H5S_ALL, H5S_ALL, H5P_DEFAULT, view.values.data()), 0) << dataset;
  H5D_fill_value_t defined;
  H5Pfill_value_defined(p, &defined);
  if (defined != H5D_FILL_VALUE_UNDEFINED) H5Pget_fill_value(p, t, view.fill.data());
  H5Pclose(p);
  H5Sclose(s);
  H5Tclose(t);
  H5Dclose(d);
  H5Fclose(f);
  return view;
}

// Checks every array of `refs` whose dtype is a plain byte layout; returns how many.
int CheckArrays(const ReferenceSet& refs, const std::string& file_path) {
  int checked = 0;
  for (const ArrayRefs& array : refs.arrays) {
    const Entry* e = refs.FindEntry(array.KeyPrefix() + ".zarray");
    if (!e) continue;
    auto meta = ZarrArrayMeta::Parse(e->value.data);
    EXPECT_TRUE(meta.ok()) << array.path();
    if (!meta.ok() || meta->dtype == "|O") continue;
    const LibraryView lib = ReadWithLibrary(file_path, "/" + array.path());
    auto ours = AssembleArray(array, *meta, file_path, lib.fill);
    EXPECT_TRUE(ours.ok()) << array.path() << ": " << ours.status().ToString();
    if (!ours.ok()) continue;
    EXPECT_TRUE(*ours == lib.values) << array.path() << " decodes differently from H5Dread";
    ++checked;
  }
  return checked;
}

TEST(TranslatorDecode, FixtureArraysDecodeToTheLibrarysValues) {
  const TranslatedFixture& f = Translated();
  // temp, x, y, be_int16, fixed_str, scalar, compact, fletcher, unwritten, never_written, bools,
  // time.
  EXPECT_EQ(CheckArrays(f.result.refs, f.path), 12);
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
  EXPECT_EQ(CheckArrays(result->refs, f.path), 12);
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
    EXPECT_GT(CheckArrays(result->refs, path), 0) << rel;
  }
}

}  // namespace
}  // namespace kerchunk::testing
