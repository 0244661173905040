// OnUnsupported policies, unreadable files, and files whose superblock says they are still
// open for writing.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <hdf5.h>

#include <chrono>
#include <fstream>

#include "hdf5/checksum.h"
#include "hdf5/h5_library.h"
#include "hdf5_translate/translator_fixture.h"
#include "kerchunk/util/file_io.h"

namespace kerchunk::testing {
namespace {

using ::testing::HasSubstr;

TEST(TranslatorPolicy, ErrorNamesFileDatasetAndReason) {
  const TranslatedFixture& f = Translated();
  auto result = ScanHdf5File(f.path, "translate.h5", FileScanOptions{});
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.status().code(), StatusCode::kUnsupported);
  // Datasets are visited by name: /compound comes before /nbit.
  // The fixture's compound is a C struct {int32 a; double b;}: 4 bytes of padding after a.
  EXPECT_EQ(result.status().message(),
            f.path +
                ": dataset /compound: compound type with padding: member 'b' at byte 8, "
                "packed at 4");
}

TEST(TranslatorPolicy, InlineStoresDecodedValues) {
  const TranslatedFixture& f = Translated();
  FileScanOptions options;
  options.on_unsupported = OnUnsupported::kInline;
  auto result = ScanHdf5File(f.path, "translate.h5", options);
  ASSERT_TRUE(result.ok()) << result.status().ToString();
  EXPECT_EQ(
      MetaJson(result->refs, "compound/.zarray"),
      ParseJson(R"({"chunks":[3],"compressor":null,"dtype":[["a","<i4"],["b","<f8"]],)"
                R"("fill_value":null,"filters":null,"order":"C","shape":[3],"zarr_format":2})"));
  const ArrayRefs* compound = result->refs.FindArray("compound");
  ASSERT_NE(compound, nullptr);
  ASSERT_EQ(compound->size(), 1u);
  EXPECT_EQ(compound->Get(0).data.size(), 36u);  // packed: 3 x (4 + 8)
  const ArrayRefs* nbit = result->refs.FindArray("nbit");
  ASSERT_NE(nbit, nullptr);
  ASSERT_EQ(nbit->size(), 1u);
  const int32_t expected[6] = {-3, -2, -1, 0, 1, 2};
  EXPECT_EQ(nbit->Get(0).data, std::string_view(reinterpret_cast<const char*>(expected), 24));
  EXPECT_EQ(MetaJson(result->refs, "nbit/.zarray").Find("dtype")->as_string(), "<i4");
  EXPECT_THAT(result->warnings, ::testing::Contains(HasSubstr("dataset /nbit stored inline")));
}

TEST(TranslatorPolicy, InlineBeyondTheLimitIsAnError) {
  const TranslatedFixture& f = Translated();
  FileScanOptions options;
  options.on_unsupported = OnUnsupported::kInline;
  options.max_inline_bytes = 10;
  auto result = ScanHdf5File(f.path, "translate.h5", options);
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.status().code(), StatusCode::kUnsupported);
  EXPECT_THAT(
      result.status().message(),
      HasSubstr("dataset /compound: compound type with padding: member 'b' at byte 8, packed "
                "at 4; cannot inline it: decoded size 36 "
                "bytes exceeds the inline limit of 10 bytes"));
}

// Writes a deflated 1-D dataset of 10 int32 in chunks of 4, optionally with
// H5D_CHUNK_DONT_FILTER_PARTIAL_CHUNKS (the last chunk, of 2 elements, is then stored raw).
std::string WriteEdgeChunkFile(const std::string& path, bool dont_filter_partial) {
  hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
  H5Pset_libver_bounds(fapl, H5F_LIBVER_LATEST, H5F_LIBVER_LATEST);
  hid_t file = H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, fapl);
  hsize_t dims = 10, chunk = 4;
  hid_t space = H5Screate_simple(1, &dims, nullptr);
  hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
  H5Pset_chunk(dcpl, 1, &chunk);
  H5Pset_deflate(dcpl, 6);
  if (dont_filter_partial) H5Pset_chunk_opts(dcpl, H5D_CHUNK_DONT_FILTER_PARTIAL_CHUNKS);
  hid_t d = H5Dcreate2(file, "edge", H5T_STD_I32LE, space, H5P_DEFAULT, dcpl, H5P_DEFAULT);
  const int32_t values[10] = {1, 2, 3, 4, 5, 6, 7, 8, 9, 10};
  H5Dwrite(d, H5T_NATIVE_INT32, H5S_ALL, H5S_ALL, H5P_DEFAULT, values);
  H5Dclose(d);
  H5Pclose(dcpl);
  H5Sclose(space);
  H5Fclose(file);
  H5Pclose(fapl);
  return path;
}

// libhdf5 reports filter mask 0 for the raw edge chunk; only the layout flag tells, and zarr
// cannot decode a raw chunk under a zlib filter, so the variable is unsupported.
TEST(TranslatorPolicy, UnfilteredPartialEdgeChunksAreUnsupported) {
  TempDir dir;
  const std::string raw_edges = WriteEdgeChunkFile(dir / "raw_edges.h5", true);
  auto failed = ScanHdf5File(raw_edges, "u", FileScanOptions{});
  ASSERT_FALSE(failed.ok());
  EXPECT_EQ(failed.status().code(), StatusCode::kUnsupported);
  EXPECT_THAT(failed.status().message(),
              HasSubstr("dataset /edge: partial edge chunk 2 at offset"));
  FileScanOptions skip;
  skip.on_unsupported = OnUnsupported::kSkip;
  auto skipped = ScanHdf5File(raw_edges, "u", skip);
  ASSERT_TRUE(skipped.ok()) << skipped.status().ToString();
  EXPECT_EQ(skipped->refs.FindArray("edge"), nullptr);
  FileScanOptions inline_values;
  inline_values.on_unsupported = OnUnsupported::kInline;
  auto inlined = ScanHdf5File(raw_edges, "u", inline_values);
  ASSERT_TRUE(inlined.ok()) << inlined.status().ToString();
  ASSERT_NE(inlined->refs.FindArray("edge"), nullptr);

  // The same dataset with the default options filters every chunk and is referenced.
  const std::string filtered = WriteEdgeChunkFile(dir / "filtered.h5", false);
  auto ok = ScanHdf5File(filtered, "u", FileScanOptions{});
  ASSERT_TRUE(ok.ok()) << ok.status().ToString();
  const ArrayRefs* edge = ok->refs.FindArray("edge");
  ASSERT_NE(edge, nullptr);
  EXPECT_EQ(edge->size(), 3u);
}

TEST(TranslatorFiles, NotHdf5IsAOneLineDataLoss) {
  TempDir dir;
  const std::string path = dir / "text.h5";
  ASSERT_TRUE(WriteFileAtomically(path, "this is not an HDF5 file\n").ok());
  auto result = ScanHdf5File(path, "x", FileScanOptions{});
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.status().code(), StatusCode::kDataLoss);
  EXPECT_THAT(result.status().message(), HasSubstr(path));
  EXPECT_EQ(result.status().message().find('\n'), std::string::npos);
}

TEST(TranslatorFiles, TruncatedFilesFailCleanly) {
  const TranslatedFixture& f = Translated();
  auto bytes = ReadFileToString(f.path);
  ASSERT_TRUE(bytes.ok());
  TempDir dir;
  for (size_t keep : {size_t{100}, bytes->size() / 4, bytes->size() / 2, bytes->size() - 100}) {
    const std::string path = dir / ("cut" + std::to_string(keep) + ".h5");
    ASSERT_TRUE(WriteFileAtomically(path, std::string_view(*bytes).substr(0, keep)).ok());
    FileScanOptions options;
    options.on_unsupported = OnUnsupported::kSkip;
    auto result = ScanHdf5File(path, "x", options);
    ASSERT_FALSE(result.ok()) << "translated a file cut at " << keep;
    EXPECT_EQ(result.status().code(), StatusCode::kDataLoss) << result.status().ToString();
    EXPECT_THAT(result.status().message(), HasSubstr(path));
    EXPECT_EQ(result.status().message().find('\n'), std::string::npos);
  }
}

// Latest-format (superblock v3) file whose status flags say a writer still has it open.
TEST(TranslatorFiles, FileMarkedOpenForWritingIsReadFromACleanImage) {
  TempDir dir;
  const std::string path = dir / "latest.h5";
  hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
  H5Pset_libver_bounds(fapl, H5F_LIBVER_LATEST, H5F_LIBVER_LATEST);
  hid_t file = H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, fapl);
  hsize_t dims = 8, chunk = 4;
  hid_t space = H5Screate_simple(1, &dims, nullptr);
  hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
  H5Pset_chunk(dcpl, 1, &chunk);
  hid_t d = H5Dcreate2(file, "v", H5T_STD_I32LE, space, H5P_DEFAULT, dcpl, H5P_DEFAULT);
  const int32_t values[8] = {1, 2, 3, 4, 5, 6, 7, 8};
  H5Dwrite(d, H5T_NATIVE_INT32, H5S_ALL, H5S_ALL, H5P_DEFAULT, values);
  H5Dclose(d);
  H5Pclose(dcpl);
  H5Sclose(space);
  H5Fclose(file);
  H5Pclose(fapl);

  auto clean = ScanHdf5File(path, "u", FileScanOptions{});
  ASSERT_TRUE(clean.ok()) << clean.status().ToString();
  auto bytes = ReadFileToString(path);
  ASSERT_TRUE(bytes.ok());
  std::string& b = *bytes;
  ASSERT_EQ(b[8], 3);  // superblock version 3, 8-byte offsets: checksum at 12 + 32
  auto stored = [&] {
    uint32_t v = 0;
    for (int i = 0; i < 4; ++i) v |= uint32_t{static_cast<uint8_t>(b[44 + i])} << (8 * i);
    return v;
  };
  // Our lookup3 reproduces libhdf5's checksum of the untouched superblock.
  EXPECT_EQ(hdf5::JenkinsLookup3(std::as_bytes(std::span(b.data(), 44))), stored());
  b[11] = 0x05;  // write access + file open (what a crashed writer leaves)
  const uint32_t sum = hdf5::JenkinsLookup3(std::as_bytes(std::span(b.data(), 44)));
  for (int i = 0; i < 4; ++i) b[44 + i] = static_cast<char>(sum >> (8 * i));
  const std::string flagged = dir / "flagged.h5";
  ASSERT_TRUE(WriteFileAtomically(flagged, b).ok());

  hdf5::SilenceLibraryErrors();
  hid_t refused = H5Fopen(flagged.c_str(), H5F_ACC_RDONLY, H5P_DEFAULT);
  EXPECT_LT(refused, 0) << "libhdf5 opened a file flagged open for writing";
  if (refused >= 0) H5Fclose(refused);
  auto result = ScanHdf5File(flagged, "u", FileScanOptions{});
  ASSERT_TRUE(result.ok()) << result.status().ToString();
  EXPECT_EQ(result->refs.entries, clean->refs.entries);
  ASSERT_EQ(result->refs.arrays.size(), 1u);
  EXPECT_EQ(result->refs.arrays[0].offsets(), clean->refs.arrays[0].offsets());
}

TEST(TranslatorScale, ManyChunks) {
  TempDir dir;
  constexpr uint64_t kChunks = 100000;
  auto path = WriteManyChunksFixture(dir.path(), kChunks);
  ASSERT_TRUE(path.ok()) << path.status().ToString();
  const auto start = std::chrono::steady_clock::now();
  auto result = ScanHdf5File(*path, "many.h5", FileScanOptions{});
  const double seconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  ASSERT_TRUE(result.ok()) << result.status().ToString();
  const ArrayRefs* a = result->refs.FindArray("data");
  ASSERT_NE(a, nullptr);
  ASSERT_EQ(a->size(), kChunks);
  for (size_t i = 0; i < a->size(); ++i) ASSERT_EQ(a->chunk_index(i), i);
  RecordProperty("refs_per_second", static_cast<int>(kChunks / seconds));
  std::printf("ScanHdf5File: %llu chunks in %.3f s (%.0f refs/s)\n",
              static_cast<unsigned long long>(kChunks), seconds, kChunks / seconds);
  EXPECT_LT(seconds, 30.0) << "the translation should be linear in the number of chunks";
}

}  // namespace
}  // namespace kerchunk::testing
