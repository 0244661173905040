// Corpus: every Kerchunk file Python kerchunk wrote for ../shared/data, and `kerchunk scan`'s
// outputs for the time series in ../shared/data/timeseries, pack and unpack exactly, in both
// encodings, and every key resolves from the packed form. Skips when ../shared is absent.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>

#include "kerchunk/json/kerchunk_json.h"
#include "pack_testing.h"
#include "support/refs_testing.h"
#include "support/test_env.h"

namespace kerchunk::pack {
namespace {

void ExpectExactAndResolvable(const ReferenceSet& refs) {
  testing::ExpectRoundTrip(refs);
  testing::ExpectRoundTrip(refs, {.checkpoint_interval = 16, .readable = true});
  auto index = PackedIndex::Parse(testing::PackText(refs, {.checkpoint_interval = 16}));
  ASSERT_TRUE(index.ok()) << index.status().message();
  for (const ArrayRefs& a : refs.arrays) {
    for (size_t i = 0; i < a.size(); ++i) {
      std::string key = a.KeyPrefix() + a.grid().Key(a.chunk_index(i));
      auto v = index->Resolve(key);
      ASSERT_TRUE(v.ok() && v->has_value()) << key;
      ChunkRef c = a.Get(i);
      if (c.kind == RefKind::kRange) {
        EXPECT_EQ((*v)->url, refs.urls[c.url]) << key;
        EXPECT_EQ((*v)->offset, c.offset) << key;
        EXPECT_EQ((*v)->length, c.length) << key;
      } else if (c.kind == RefKind::kInline) {
        EXPECT_EQ((*v)->data, c.data) << key;
      }
    }
  }
}

// Bytes of the "base64:" text of the inline values of `refs` that are zlib streams (RFC 1950
// header: deflate, check bits), what HDF5's deflate filter writes.
uint64_t InlineZlibBytes(const ReferenceSet& refs) {
  uint64_t bytes = 0;
  for (const ArrayRefs& a : refs.arrays) {
    for (size_t i = 0; i < a.size(); ++i) {
      const ChunkRef c = a.Get(i);
      if (c.kind != RefKind::kInline || !c.base64 || c.data.size() < 2) continue;
      const auto cmf = static_cast<uint8_t>(c.data[0]), flg = static_cast<uint8_t>(c.data[1]);
      if ((cmf & 0x0f) != 8 || (cmf * 256 + flg) % 31 != 0) continue;
      bytes += 7 + (c.data.size() + 2) / 3 * 4;
    }
  }
  return bytes;
}

std::string TestName(const std::string& path, size_t index) {
  std::string name = std::filesystem::path(path).filename();
  for (auto& c : name) {
    if (!isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return name + "_" + std::to_string(index);
}

std::vector<std::string> ExpectedFiles() {
  std::vector<std::string> files;
  auto dir = kerchunk::testing::ExpectedDir();
  if (!dir) return files;
  for (auto& e : std::filesystem::recursive_directory_iterator(*dir / "data")) {
    if (e.is_regular_file() && e.path().extension() == ".json") files.push_back(e.path());
  }
  std::sort(files.begin(), files.end());
  return files;
}

class PackExpectedCorpusTest : public ::testing::TestWithParam<std::string> {};

TEST_P(PackExpectedCorpusTest, PacksExactly) {
  auto refs = ReadKerchunkFile(GetParam());
  ASSERT_TRUE(refs.ok()) << refs.status().message();
  ExpectExactAndResolvable(*refs);
}

// The compact form (the container) is never larger than `zstd -19` of the Kerchunk JSON.
TEST_P(PackExpectedCorpusTest, CompactFormIsNoLargerThanZstd19) {
  kerchunk::testing::TempDir dir;
  const std::string packed = dir / "p.packed.json";
  using kerchunk::testing::ShellQuote;
  auto pack =
      kerchunk::testing::RunCommand(ShellQuote(kerchunk::testing::KerchunkBinary()) + " pack -q " +
                                    ShellQuote(GetParam()) + " -o " + ShellQuote(packed));
  ASSERT_EQ(pack.exit_code, 0) << pack.err;
  auto zstd =
      kerchunk::testing::RunCommand("zstd -19 -q -c " + ShellQuote(GetParam()) + " | wc -c");
  ASSERT_EQ(zstd.exit_code, 0) << zstd.err;
  const uint64_t zstd_bytes = std::stoull(zstd.out);
  const uint64_t packed_bytes = std::filesystem::file_size(packed);
  EXPECT_LE(packed_bytes, zstd_bytes) << "zstd -19: " << zstd_bytes;
  // Indexes that are mostly inline zlib streams (Python kerchunk's MultiZarrToZarr outputs of
  // small-chunked NetCDF-4 series) pack to at most 0.7 of zstd -19: the streams are stored
  // inflated.
  auto refs = ReadKerchunkFile(GetParam());
  ASSERT_TRUE(refs.ok()) << refs.status().message();
  if (2 * InlineZlibBytes(*refs) >= std::filesystem::file_size(GetParam())) {
    EXPECT_LE(packed_bytes * 10, zstd_bytes * 7) << "zstd -19: " << zstd_bytes;
  }
}

INSTANTIATE_TEST_SUITE_P(Expected, PackExpectedCorpusTest, ::testing::ValuesIn(ExpectedFiles()),
                         [](const auto& param_info) {
                           return TestName(param_info.param, param_info.index);
                         });
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(PackExpectedCorpusTest);

std::vector<std::string> TimeSeries() {
  std::vector<std::string> dirs;
  auto data = kerchunk::testing::SharedDataDir();
  if (!data || !std::filesystem::is_directory(*data / "timeseries")) return dirs;
  for (auto& e : std::filesystem::directory_iterator(*data / "timeseries")) {
    if (e.is_directory()) dirs.push_back(e.path());
  }
  std::sort(dirs.begin(), dirs.end());
  return dirs;
}

class PackScanCorpusTest : public ::testing::TestWithParam<std::string> {};

// `kerchunk scan` of a whole series, combined along time, packs exactly. Scan is another
// component: when it cannot index a series, that is its test's failure, so this one skips.
// Series whose files overlap completely are scanned with MultiZarrToZarr's later-wins rule
// (scan refuses them by default), so that they are packed too.
TEST_P(PackScanCorpusTest, ScanOutputPacksExactly) {
  kerchunk::testing::TempDir tmp;
  std::string out = tmp / "scan.json";
  auto r = kerchunk::testing::RunCommand(
      kerchunk::testing::ShellQuote(kerchunk::testing::KerchunkBinary()) + " scan " +
      kerchunk::testing::ShellQuote(GetParam()) + " -q --on-overlap later -o " +
      kerchunk::testing::ShellQuote(out));
  if (r.exit_code != 0) GTEST_SKIP() << "kerchunk scan failed: " << r.err;
  auto refs = ReadKerchunkFile(out);
  ASSERT_TRUE(refs.ok()) << refs.status().message();
  ExpectExactAndResolvable(*refs);
}

INSTANTIATE_TEST_SUITE_P(Scan, PackScanCorpusTest, ::testing::ValuesIn(TimeSeries()),
                         [](const auto& param_info) {
                           return TestName(param_info.param, param_info.index);
                         });
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(PackScanCorpusTest);

}  // namespace
}  // namespace kerchunk::pack
