// The comparison both oracle tests (fixtures and corpus) make for one dataset.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <string>

#include "hdf5/chunk_oracle.h"

namespace kerchunk::testing {

/// Returns the number of chunks checked. The native walk must report exactly the chunks
/// H5Dget_chunk_info reports. The one exception is libhdf5 1.10's coordinate bug for extensible
/// arrays whose unlimited dimension is not the first (see VerifyWithReadChunk): there the same
/// chunks (offset, size, mask) must be reported and every coordinate is proven by H5Dread_chunk.
/// A native Unsupported error (a file feature this reader declines) is reported, not failed.
inline size_t ExpectDatasetMatchesLibrary(const std::string& path, const std::string& name) {
  auto expected = LibraryChunks(path, name);
  EXPECT_TRUE(expected.ok()) << expected.status().ToString();
  auto got = NativeChunks(path, name);
  if (got.status().code() == StatusCode::kUnsupported) {
    std::printf("%s:%s: unsupported: %s\n", path.c_str(), name.c_str(),
                got.status().message().c_str());
    return 0;
  }
  EXPECT_TRUE(got.ok()) << got.status().ToString();
  if (!expected.ok() || !got.ok()) return 0;
  EXPECT_EQ(got->size(), expected->size());
  if (*got == *expected) return got->size();
  auto without_coords = [](std::vector<ChunkRecord> v) {
    for (auto& c : v) c.coords.clear();
    std::sort(v.begin(), v.end());
    return v;
  };
  auto info = DatasetInfo(path, name);
  const bool swizzled =
      info.ok() && !info->max_dims.empty() && info->max_dims[0] != hdf5::kUnlimited &&
      std::count(info->max_dims.begin(), info->max_dims.end(), hdf5::kUnlimited) == 1;
  if (swizzled && without_coords(*got) == without_coords(*expected)) {
    Status proven = VerifyWithReadChunk(path, name, ReadBytes(path), *got);
    EXPECT_TRUE(proven.ok()) << proven.ToString();
    return got->size();
  }
  auto [g, e] = std::mismatch(got->begin(), got->end(), expected->begin(), expected->end());
  if (g != got->end()) ADD_FAILURE() << "first difference: got " << *g;
  if (e != expected->end()) ADD_FAILURE() << "first difference: expected " << *e;
  return 0;
}

}  // namespace kerchunk::testing
