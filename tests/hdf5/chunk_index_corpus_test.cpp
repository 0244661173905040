// The native chunk-index walker against libhdf5 (H5Dget_chunk_info) on every HDF5 file of the
// shared corpus (../shared/data), one ctest test per file. Skips cleanly when the corpus is
// absent; files libhdf5 cannot open are skipped with the library's reason.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <string>
#include <vector>

#include "hdf5/chunk_oracle.h"
#include "hdf5/h5_library.h"
#include "hdf5/oracle_check.h"
#include "support/test_env.h"

namespace kerchunk::testing {
namespace {

// Corpus files (relative to the data folder) that carry an HDF5 signature, sorted; a single ""
// when the corpus is absent, so the suite is instantiated and skips.
std::vector<std::string> CorpusFiles() {
  std::vector<std::string> files;
  if (auto dir = SharedDataDir()) {
    for (const auto& entry : std::filesystem::recursive_directory_iterator(*dir)) {
      if (!entry.is_regular_file()) continue;
      auto bytes = ReadBytes(entry.path().string());
      if (hdf5::ReadSuperblock(bytes).ok()) {
        files.push_back(std::filesystem::relative(entry.path(), *dir).string());
      }
    }
  }
  std::sort(files.begin(), files.end());
  if (files.empty()) files.push_back("");
  return files;
}

std::string TestName(const ::testing::TestParamInfo<std::string>& info) {
  std::string name = info.param.empty() ? "NoCorpus" : info.param;
  for (char& c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return name;
}

class ChunkIndexCorpusTest : public ::testing::TestWithParam<std::string> {};

TEST_P(ChunkIndexCorpusTest, MatchesLibrary) {
  KERCHUNK_SKIP_WITHOUT_SHARED_DATA();
  const std::string path = (*SharedDataDir() / GetParam()).string();
  hdf5::SilenceLibraryErrors();
  auto names = ListChunkedDatasets(path);
  if (!names.ok()) GTEST_SKIP() << "libhdf5 cannot open it: " << names.status().message();
  size_t chunks = 0;
  for (const auto& name : *names) {
    SCOPED_TRACE(GetParam() + ":" + name);
    chunks += ExpectDatasetMatchesLibrary(path, name);
  }
  std::printf("%s: %zu chunked datasets, %zu chunks matched\n", GetParam().c_str(), names->size(),
              chunks);
  RecordProperty("datasets", static_cast<int>(names->size()));
  RecordProperty("chunks", static_cast<int>(chunks));
}

INSTANTIATE_TEST_SUITE_P(SharedData, ChunkIndexCorpusTest, ::testing::ValuesIn(CorpusFiles()),
                         TestName);

}  // namespace
}  // namespace kerchunk::testing
