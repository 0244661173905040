// The HDF5 files of the shared corpus (../shared/data), found by their signature, for the
// corpus tests of the HDF5 translation. Header-only so tests in several folders can share it.
#pragma once

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "support/test_env.h"

namespace kerchunk::testing {

/// Whether `path` starts with the HDF5 signature at offset 0, 512, 1024, ...
inline bool HasHdf5Signature(const std::filesystem::path& path) {
  static constexpr char kSignature[8] = {'\x89', 'H', 'D', 'F', '\r', '\n', '\x1a', '\n'};
  std::ifstream in(path, std::ios::binary);
  const auto size = std::filesystem::file_size(path);
  for (uint64_t at = 0; at + 8 <= size; at = at == 0 ? 512 : at * 2) {
    char buf[8];
    in.seekg(static_cast<std::streamoff>(at));
    if (!in.read(buf, 8)) return false;
    if (std::memcmp(buf, kSignature, 8) == 0) return true;
  }
  return false;
}

/// Paths relative to ../shared (e.g. "data/filters/x.h5") of every HDF5 file, sorted; empty
/// when the corpus is absent.
inline std::vector<std::string> Hdf5CorpusFiles() {
  std::vector<std::string> out;
  auto shared = SharedDir();
  auto data = SharedDataDir();
  if (!shared || !data) return out;
  for (const auto& entry : std::filesystem::recursive_directory_iterator(*data)) {
    if (entry.is_regular_file() && HasHdf5Signature(entry.path())) {
      out.push_back(std::filesystem::relative(entry.path(), *shared).generic_string());
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

/// A test parameter name from a corpus path: alphanumerics kept, everything else '_'.
inline std::string CorpusTestName(const std::string& path) {
  std::string name = path;
  for (char& c : name) {
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  }
  return name;
}

}  // namespace kerchunk::testing
