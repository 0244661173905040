// The native HDF5 translator against the libhdf5-based one (the oracle) on generated files:
// the translation fixture, every chunk-index fixture, the metadata cache image fixtures, a
// NetCDF-4 series, the samples in data/samples, and files written here for the storages the
// other fixtures do not reach:
// dense attributes and links (fractal heap + v2 B-tree name index, huge heap objects), links
// ordered by creation, shared messages (committed datatypes, the SOHM table), soft, external and
// repeated hard links, chunked deflated variable-length strings with a fill value, enums.
#include <gtest/gtest.h>
#include <hdf5.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "hdf5/native_translator.h"
#include "kerchunk/util/file_io.h"
#include "native_oracle_check.h"
#include "support/child_process.h"
#include "support/hdf5_fixtures.h"
#include "support/hdf5_structured_fixtures.h"
#include "support/hdf5_translate_fixtures.h"
#include "support/scan_fixtures.h"
#include "support/test_env.h"

namespace kerchunk::testing {
namespace {

// Runs the comparison under the option sets of the corpus test.
void ExpectAllPoliciesMatch(const std::string& path) {
  SCOPED_TRACE(path);
  ExpectNativeMatchesLibrary(path, "file.h5", FileScanOptions{});
  FileScanOptions skip;
  skip.on_unsupported = OnUnsupported::kSkip;
  ExpectNativeMatchesLibrary(path, "file.h5", skip);
  skip.inline_threshold = 500;
  ExpectNativeMatchesLibrary(path, "file.h5", skip);
}

void WriteStringAttribute(hid_t object, const char* name, const std::string& value) {
  hid_t type = H5Tcopy(H5T_C_S1);
  H5Tset_size(type, value.size());
  hid_t space = H5Screate(H5S_SCALAR);
  hid_t attr = H5Acreate2(object, name, type, space, H5P_DEFAULT, H5P_DEFAULT);
  H5Awrite(attr, type, value.data());
  H5Aclose(attr);
  H5Sclose(space);
  H5Tclose(type);
}

void WriteIntAttribute(hid_t object, const std::string& name, int value) {
  hid_t space = H5Screate(H5S_SCALAR);
  hid_t attr = H5Acreate2(object, name.c_str(), H5T_STD_I32BE, space, H5P_DEFAULT, H5P_DEFAULT);
  H5Awrite(attr, H5T_NATIVE_INT, &value);
  H5Aclose(attr);
  H5Sclose(space);
}

// A file in the latest format (or the earliest, or with a SOHM table) using every group and
// attribute storage the native reader implements.
std::string WriteStorageFixture(const std::filesystem::path& dir, const std::string& name,
                                bool latest, bool sohm, size_t big_attribute = 200000) {
  const std::string path = (dir / name).string();
  hid_t fapl = H5Pcreate(H5P_FILE_ACCESS);
  if (latest) H5Pset_libver_bounds(fapl, H5F_LIBVER_LATEST, H5F_LIBVER_LATEST);
  hid_t fcpl = H5Pcreate(H5P_FILE_CREATE);
  if (sohm) {
    H5Pset_shared_mesg_nindexes(fcpl, 2);
    H5Pset_shared_mesg_index(fcpl, 0, H5O_SHMESG_DTYPE_FLAG | H5O_SHMESG_SDSPACE_FLAG, 1);
    H5Pset_shared_mesg_index(fcpl, 1, H5O_SHMESG_ATTR_FLAG | H5O_SHMESG_FILL_FLAG, 1);
  }
  hid_t file = H5Fcreate(path.c_str(), H5F_ACC_TRUNC, fcpl, fapl);
  hid_t root = H5Gopen2(file, "/", H5P_DEFAULT);
  // Dense attributes (more than 8 in the latest format), one of them larger than the heap's
  // largest managed object (a huge object).
  for (int i = 0; i < 20; ++i) WriteIntAttribute(root, "attr_" + std::to_string(i), i * 7 - 40);
  WriteStringAttribute(root, "big", std::string(big_attribute, 'x'));
  WriteStringAttribute(root, "title", "storage fixture");
  // A group of many links (dense links), tracked and indexed by creation order, names out of
  // order.
  hid_t gcpl = H5Pcreate(H5P_GROUP_CREATE);
  H5Pset_link_creation_order(gcpl, H5P_CRT_ORDER_TRACKED | H5P_CRT_ORDER_INDEXED);
  hid_t many = H5Gcreate2(file, "many", H5P_DEFAULT, gcpl, H5P_DEFAULT);
  hsize_t dims[1] = {6}, chunk[1] = {4};
  hid_t space = H5Screate_simple(1, dims, nullptr);
  for (int i = 19; i >= 0; --i) {
    const std::string child = "v" + std::to_string(i);
    hid_t d = H5Dcreate2(many, child.c_str(), H5T_IEEE_F32LE, space, H5P_DEFAULT, H5P_DEFAULT,
                         H5P_DEFAULT);
    const float values[6] = {1.f * i, 2, 3, 4, 5, 6};
    H5Dwrite(d, H5T_NATIVE_FLOAT, H5S_ALL, H5S_ALL, H5P_DEFAULT, values);
    WriteStringAttribute(d, "units", "m");
    H5Dclose(d);
  }
  // A committed datatype used by a dataset and an attribute.
  hid_t committed = H5Tcopy(H5T_STD_I16BE);
  H5Tcommit2(file, "int16_type", committed, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  hid_t typed = H5Dcreate2(file, "typed", committed, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  const short shorts[6] = {-3, -2, -1, 0, 1, 2};
  H5Dwrite(typed, H5T_NATIVE_SHORT, H5S_ALL, H5S_ALL, H5P_DEFAULT, shorts);
  hid_t scalar = H5Screate(H5S_SCALAR);
  hid_t typed_attr = H5Acreate2(typed, "offset", committed, scalar, H5P_DEFAULT, H5P_DEFAULT);
  H5Awrite(typed_attr, H5T_NATIVE_SHORT, shorts);
  H5Aclose(typed_attr);
  // Soft, external and a second hard link to /typed (visited once, under its first name).
  H5Lcreate_soft("/typed", file, "soft", H5P_DEFAULT, H5P_DEFAULT);
  H5Lcreate_external("elsewhere.h5", "/x", file, "external", H5P_DEFAULT, H5P_DEFAULT);
  H5Lcreate_hard(file, "typed", many, "again", H5P_DEFAULT, H5P_DEFAULT);
  // Chunked, deflated variable-length strings: with a fill value, every chunk written (libhdf5
  // cannot read an unwritten chunk's vlen fill value from a read-only file); without one, a
  // chunk never written.
  hid_t vlen = H5Tcopy(H5T_C_S1);
  H5Tset_size(vlen, H5T_VARIABLE);
  H5Tset_cset(vlen, H5T_CSET_UTF8);
  hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
  H5Pset_chunk(dcpl, 1, chunk);
  H5Pset_deflate(dcpl, 5);
  const char* fill = "n/a";
  H5Pset_fill_value(dcpl, vlen, &fill);
  hsize_t strings_dims[1] = {8};
  hid_t strings_space = H5Screate_simple(1, strings_dims, nullptr);
  hid_t strings = H5Dcreate2(file, "strings", vlen, strings_space, H5P_DEFAULT, dcpl, H5P_DEFAULT);
  const char* words[8] = {"alpha", "b\xc3\xa9ta", "", "delta", "e", "f", "g", "h"};
  H5Dwrite(strings, vlen, H5S_ALL, H5S_ALL, H5P_DEFAULT, words);
  H5Pset_fill_value(dcpl, vlen, nullptr);
  hid_t sparse =
      H5Dcreate2(file, "sparse_strings", vlen, strings_space, H5P_DEFAULT, dcpl, H5P_DEFAULT);
  hsize_t start[1] = {0}, count[1] = {4};
  hid_t mem = H5Screate_simple(1, count, nullptr);
  H5Sselect_hyperslab(strings_space, H5S_SELECT_SET, start, nullptr, count, nullptr);
  H5Dwrite(sparse, vlen, mem, strings_space, H5P_DEFAULT, words);
  // Variable-length sequences of int16.
  hid_t seq_type = H5Tvlen_create(H5T_STD_I16LE);
  hid_t seqs =
      H5Dcreate2(file, "sequences", seq_type, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  short payload[21];
  for (int i = 0; i < 21; ++i) payload[i] = static_cast<short>(i - 10);
  hvl_t lists[6];
  for (int i = 0, at = 0; i < 6; at += i, ++i) lists[i] = {static_cast<size_t>(i), payload + at};
  hid_t seq_mem = H5Tvlen_create(H5T_NATIVE_SHORT);
  H5Dwrite(seqs, seq_mem, H5S_ALL, H5S_ALL, H5P_DEFAULT, lists);
  // An enum variable whose _FillValue has the variable's own type (as netCDF writes it).
  hid_t enum_type = H5Tenum_create(H5T_STD_U8LE);
  for (unsigned char v = 0; v < 3; ++v) {
    const std::string member = "level" + std::to_string(v);
    H5Tenum_insert(enum_type, member.c_str(), &v);
  }
  hid_t levels =
      H5Dcreate2(file, "levels", enum_type, space, H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  const unsigned char level_values[6] = {0, 1, 2, 2, 1, 0};
  H5Dwrite(levels, enum_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, level_values);
  hid_t enum_fill = H5Acreate2(levels, "_FillValue", enum_type, scalar, H5P_DEFAULT, H5P_DEFAULT);
  H5Awrite(enum_fill, enum_type, level_values + 2);
  H5Aclose(enum_fill);
  for (hid_t id : {levels, seqs, strings, sparse}) H5Dclose(id);
  for (hid_t id : {enum_type, seq_type, seq_mem, vlen, committed}) H5Tclose(id);
  for (hid_t id : {mem, strings_space, space, scalar}) H5Sclose(id);
  H5Dclose(typed);
  for (hid_t id : {dcpl, gcpl, fcpl, fapl}) H5Pclose(id);
  H5Gclose(many);
  H5Gclose(root);
  H5Fclose(file);
  return path;
}

TEST(NativeOracleFixtures, TranslationFixture) {
  TempDir dir;
  auto path = WriteTranslationFixture(dir.path());
  ASSERT_TRUE(path.ok()) << path.status().ToString();
  ExpectAllPoliciesMatch(*path);
}

TEST(NativeOracleFixtures, StructuredFixture) {
  TempDir dir;
  auto path = WriteStructuredFixture(dir.path());
  ASSERT_TRUE(path.ok()) << path.status().ToString();
  ExpectAllPoliciesMatch(*path);
}

TEST(NativeOracleFixtures, EveryChunkIndexFixture) {
  TempDir dir;
  auto paths = WriteAllIndexFixtures(dir.path());
  ASSERT_TRUE(paths.ok()) << paths.status().ToString();
  auto user_block = WriteUserBlockFixture(dir.path());
  ASSERT_TRUE(user_block.ok()) << user_block.status().ToString();
  paths->push_back(*user_block);
  for (const std::string& p : *paths) ExpectAllPoliciesMatch(p);
}

// Files closed with a metadata cache image: libhdf5 keeps every object header, index node and
// heap only in the image block, which the native reader overlays at their addresses.
TEST(NativeOracleFixtures, MetadataCacheImage) {
  TempDir dir;
  for (bool latest : {true, false}) {
    auto path = WriteCacheImageFixture(dir.path(), latest);
    ASSERT_TRUE(path.ok()) << path.status().ToString();
    KERCHUNK_EXPECT_IN_CHILD_PROCESS(ExpectAllPoliciesMatch(*path));
    // Both sides translate (rather than agreeing on a failure), every dataset included.
    FileScanOptions options;
    options.hdf5_reader = Hdf5Reader::kNativeOnly;
    auto native = ScanHdf5File(*path, "file.h5", options);
    ASSERT_TRUE(native.ok()) << native.status().ToString();
    EXPECT_GT(native->refs.ChunkCount(), 700u);
    EXPECT_EQ(native->warnings, std::vector<std::string>{});
  }
}

TEST(NativeOracleFixtures, NetCdf4Series) {
  TempDir dir;
  SeriesSpec spec;
  spec.files = 2;
  auto paths = WriteSeries(dir.path(), spec);
  ASSERT_TRUE(paths.ok()) << paths.status().ToString();
  for (const std::string& p : *paths) ExpectAllPoliciesMatch(p);
}

TEST(NativeOracleFixtures, Samples) {
  const std::filesystem::path samples = KERCHUNK_SAMPLES_DIR;
  int files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(samples)) {
    if (entry.path().extension() == ".h5" ||
        entry.path().filename().string().rfind("daily", 0) == 0) {
      ExpectAllPoliciesMatch(entry.path().string());
      ++files;
    }
  }
  EXPECT_GE(files, 4);
}

TEST(NativeOracleFixtures, DenseAndSharedStorageLatestFormat) {
  TempDir dir;
  ExpectAllPoliciesMatch(WriteStorageFixture(dir.path(), "latest.h5", true, false));
}

TEST(NativeOracleFixtures, SymbolTableGroupsEarliestFormat) {
  TempDir dir;
  ExpectAllPoliciesMatch(WriteStorageFixture(dir.path(), "earliest.h5", false, false));
}

TEST(NativeOracleFixtures, SharedObjectHeaderMessages) {
  TempDir dir;
  ExpectAllPoliciesMatch(WriteStorageFixture(dir.path(), "sohm.h5", true, true));
}

// Bytes flipped at random and the file cut at random lengths: the native scan of every variant
// translates or fails with a one-line error naming the file, never crashes (the sanitizer
// build of this test catches out-of-bounds reads).
void ExpectFlipsAndCutsFailCleanly(const std::string& path) {
  auto bytes = ReadFileToString(path);
  ASSERT_TRUE(bytes.ok());
  std::mt19937_64 random(17);
  FileScanOptions options;
  options.on_unsupported = OnUnsupported::kSkip;
  options.inline_threshold = 64;
  int translated = 0, failed = 0;
  for (int round = 0; round < 400; ++round) {
    std::string image = *bytes;
    if (round % 4 == 3) {
      image.resize(random() % image.size());
    } else {
      for (int k = 0; k < 1 + round % 3; ++k) {
        image[random() % image.size()] ^= static_cast<char>(1 + random() % 255);
      }
    }
    auto result = ScanHdf5Image(std::as_bytes(std::span(image)), "flip.h5", "flip.h5", options);
    if (result.ok()) {
      ++translated;
      continue;
    }
    ++failed;
    EXPECT_EQ(result.status().message().rfind("flip.h5: ", 0), 0u) << result.status().ToString();
    EXPECT_EQ(result.status().message().find('\n'), std::string::npos);
  }
  // Both outcomes occur: flips in data leave the file readable, flips in metadata do not.
  EXPECT_GT(translated, 0);
  EXPECT_GT(failed, 0);
}

TEST(NativeScanBadInput, RandomByteFlipsAndCutsFailCleanly) {
  TempDir dir;
  ExpectFlipsAndCutsFailCleanly(WriteStorageFixture(dir.path(), "flip.h5", true, true, 70000));
}

// The same over compound datatypes (members, offsets, nested and array types).
TEST(NativeScanBadInput, FlippedCompoundTypesFailCleanly) {
  TempDir dir;
  auto path = WriteStructuredFixture(dir.path());
  ASSERT_TRUE(path.ok()) << path.status().ToString();
  ExpectFlipsAndCutsFailCleanly(*path);
}

// A fixed-length string of 64 MiB + 1 bytes per element (a fuzzed datatype size of 4 GiB took
// 10 s and 4 GB sizing the fill value): skipped under kSkip with the reason, refused under
// kError and kInline (inlining would ask libhdf5 for elements of that size), at once.
TEST(NativeScanBadInput, ElementsAboveTheLimitAreSkippedOrRefused) {
  TempDir dir;
  const std::string path = (dir.path() / "huge_string.h5").string();
  hid_t file = H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  ASSERT_GE(file, 0);
  hid_t type = H5Tcopy(H5T_C_S1);
  H5Tset_size(type, hdf5::internal::kMaxElementBytes + 1);
  const hsize_t dims[1] = {2}, chunk[1] = {1};
  hid_t space = H5Screate_simple(1, dims, nullptr);
  hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
  H5Pset_chunk(dcpl, 1, chunk);
  H5Pset_fill_time(dcpl, H5D_FILL_TIME_NEVER);
  hid_t dset = H5Dcreate2(file, "huge", type, space, H5P_DEFAULT, dcpl, H5P_DEFAULT);
  ASSERT_GE(dset, 0);
  H5Dclose(dset);
  H5Pclose(dcpl);
  H5Sclose(space);
  H5Tclose(type);
  H5Fclose(file);

  FileScanOptions skip;
  skip.on_unsupported = OnUnsupported::kSkip;
  auto skipped = ScanHdf5File(path, "huge_string.h5", skip);
  ASSERT_TRUE(skipped.ok()) << skipped.status().ToString();
  EXPECT_EQ(skipped->refs.FindArray("huge"), nullptr);
  ASSERT_EQ(skipped->warnings.size(), 1u);
  EXPECT_EQ(skipped->warnings[0],
            "dataset /huge skipped: an element of 67108865 bytes, more than the 67108864 a scan "
            "takes");
  for (OnUnsupported policy : {OnUnsupported::kError, OnUnsupported::kInline}) {
    FileScanOptions options;
    options.on_unsupported = policy;
    auto refused = ScanHdf5File(path, "huge_string.h5", options);
    ASSERT_FALSE(refused.ok());
    EXPECT_EQ(refused.status().code(), StatusCode::kUnsupported);
    EXPECT_NE(refused.status().message().find("dataset /huge: an element of 67108865 bytes"),
              std::string::npos)
        << refused.status().ToString();
  }
}

// A file at `path` with one dataset `name` of `count` variable-length strings: `strings`
// written (contiguous) when given, else none written (chunks of 4096, never allocated).
void WriteStringsFile(const std::string& path, const char* name, hsize_t count,
                      const std::vector<const char*>& strings) {
  hid_t file = H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  ASSERT_GE(file, 0);
  hid_t type = H5Tcopy(H5T_C_S1);
  H5Tset_size(type, H5T_VARIABLE);
  hid_t space = H5Screate_simple(1, &count, nullptr);
  hid_t dcpl = H5Pcreate(H5P_DATASET_CREATE);
  const hsize_t chunk[1] = {4096};
  if (strings.empty()) H5Pset_chunk(dcpl, 1, chunk);
  hid_t dset = H5Dcreate2(file, name, type, space, H5P_DEFAULT, dcpl, H5P_DEFAULT);
  ASSERT_GE(dset, 0);
  if (!strings.empty()) {
    ASSERT_GE(H5Dwrite(dset, type, H5S_ALL, H5S_ALL, H5P_DEFAULT, strings.data()), 0);
  }
  H5Dclose(dset);
  H5Pclose(dcpl);
  H5Sclose(space);
  H5Tclose(type);
  H5Fclose(file);
}

// Scans `path` under each policy and expects it refused as unsupported with `reason`.
void ExpectRefused(const std::string& path, const std::string& reason) {
  for (OnUnsupported policy : {OnUnsupported::kSkip, OnUnsupported::kError}) {
    FileScanOptions options;
    options.on_unsupported = policy;
    auto refused = ScanHdf5File(path, "strings.h5", options);
    ASSERT_FALSE(refused.ok());
    EXPECT_EQ(refused.status().code(), StatusCode::kUnsupported);
    EXPECT_NE(refused.status().message().find(reason), std::string::npos)
        << refused.status().ToString();
  }
}

// A variable-length dataset of more elements than a scan embeds (a fuzzed 25 KB file declared
// 2.75 M, unwritten, and took 10 s under the fuzzer): refused from its dataspace alone.
TEST(NativeScanBadInput, VariableLengthElementsAboveTheLimitAreRefused) {
  TempDir dir;
  const std::string path = dir / "strings.h5";
  WriteStringsFile(path, "many", hdf5::internal::kMaxEmbeddedElements + 1, {});
  ExpectRefused(path, "dataset /many: 1048577 variable-length elements: more than the 1048576");
}

// Variable-length strings that add up to more than the embedding limit (64 MiB): 65 strings of
// 1 MiB + 1 byte. A hostile file can get there from a few bytes by pointing many elements at one
// heap object; this one is honest and big. Refused, as the element limits before it are, under
// every policy, with the reason, and without asking libhdf5.
TEST(NativeScanBadInput, VariableLengthValuesAboveTheLimitAreRefused) {
  TempDir dir;
  const std::string path = dir / "strings.h5";
  const std::string text((uint64_t{1} << 20) + 1, 'x');
  WriteStringsFile(path, "long", 65, std::vector<const char*>(65, text.c_str()));
  ExpectRefused(path, "dataset /long: variable-length values of more than the 67108864 bytes");
}

// The same where the metadata lives in a metadata cache image block.
TEST(NativeScanBadInput, FlippedCacheImageFailsCleanly) {
  TempDir dir;
  auto path = WriteCacheImageFixture(dir.path(), /*latest=*/true);
  ASSERT_TRUE(path.ok()) << path.status().ToString();
  ExpectFlipsAndCutsFailCleanly(*path);
}

// Writes the seeds of the hdf5_scan fuzz target (tests/fuzz/corpus/hdf5_scan):
//   KERCHUNK_FUZZ_SEED_DIR=tests/fuzz/corpus/hdf5_scan
//     build/tests/hdf5_translate/hdf5_native_oracle_fixtures_test
//     --gtest_also_run_disabled_tests --gtest_filter='*WriteSeeds'
TEST(NativeOracleFixtures, DISABLED_WriteSeeds) {
  const char* out = std::getenv("KERCHUNK_FUZZ_SEED_DIR");
  ASSERT_NE(out, nullptr);
  TempDir dir;
  std::vector<std::string> paths = {
      WriteStorageFixture(dir.path(), "seed_latest.h5", true, false, 6000),
      WriteStorageFixture(dir.path(), "seed_earliest.h5", false, false, 2000),
      WriteStorageFixture(dir.path(), "seed_sohm.h5", true, true, 2000)};
  auto translation = WriteTranslationFixture(dir.path());
  ASSERT_TRUE(translation.ok());
  paths.push_back(*translation);
  auto structured = WriteStructuredFixture(dir.path());
  ASSERT_TRUE(structured.ok());
  paths.push_back(*structured);
  for (const char* type :
       {"btree1", "single", "implicit", "farray", "earray", "btree2", "cache_image"}) {
    const auto sub = dir.path() / type;
    std::filesystem::create_directories(sub);
    auto index = WriteSmallIndexFixture(sub, type);
    ASSERT_TRUE(index.ok()) << index.status().ToString();
    const auto renamed = dir.path() / (std::string("seed_index_") + type + ".h5");
    std::filesystem::rename(*index, renamed);
    paths.push_back(renamed.string());
  }
  for (const std::string& p : paths) {
    std::filesystem::copy_file(p, std::filesystem::path(out) / std::filesystem::path(p).filename(),
                               std::filesystem::copy_options::overwrite_existing);
  }
}

}  // namespace
}  // namespace kerchunk::testing
