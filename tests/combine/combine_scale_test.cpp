// Scale: 1,000 files x 3 variables x 1,000 chunks = 3M references combine in well under a
// second in an optimised build (the time is printed; the bound here only catches pathological
// regressions, since sanitizer builds run several times slower).
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <cstring>
#include <ctime>

#include "kerchunk/combine/combine.h"

namespace kerchunk {
namespace {

constexpr int kFiles = 1000;
constexpr int kSteps = 1000;  // per file, one chunk per step
constexpr const char* kVariables[] = {"tas", "pr", "huss"};

ReferenceSet MakeFile(int f) {
  ReferenceSet r;
  uint32_t url = r.urls.Intern(fmt::format("s3://bucket/run/file_{:04}.nc", f));
  r.SetText(".zgroup", R"({"zarr_format":2})");
  r.SetText("time/.zarray", fmt::format(R"({{"chunks":[{0}],"compressor":null,"dtype":"<f8",)"
                                        R"("fill_value":null,"filters":null,"order":"C",)"
                                        R"("shape":[{0}],"zarr_format":2}})",
                                        kSteps));
  r.SetText("time/.zattrs", R"({"_ARRAY_DIMENSIONS":["time"],"units":"hours since 1990-01-01"})");
  std::string values(8 * kSteps, '\0');
  for (int i = 0; i < kSteps; ++i) {
    double v = static_cast<double>(f) * kSteps + i;
    std::memcpy(values.data() + 8 * i, &v, 8);
  }
  r.AddArray("time", *ChunkGrid::Make({kSteps}, {kSteps})).AddInline(0, values, true);
  uint64_t offset = 4096;
  for (const char* name : kVariables) {
    r.SetText(std::string(name) + "/.zarray",
              fmt::format(R"({{"chunks":[1,100,100],"compressor":{{"id":"zlib","level":4}},)"
                          R"("dtype":"<f4","fill_value":1e20,"filters":null,"order":"C",)"
                          R"("shape":[{},100,100],"zarr_format":2}})",
                          kSteps));
    r.SetText(std::string(name) + "/.zattrs", R"({"_ARRAY_DIMENSIONS":["time","y","x"]})");
    ArrayRefs& a = r.AddArray(name, *ChunkGrid::Make({kSteps, 100, 100}, {1, 100, 100}));
    a.Reserve(kSteps);
    for (int k = 0; k < kSteps; ++k) {
      a.AddRange(k, url, offset, 30000 + k % 977);
      offset += 30000 + k % 977;
    }
  }
  return r;
}

TEST(CombineScaleTest, ThreeMillionReferences) {
  std::vector<ReferenceSet> parts;
  parts.reserve(kFiles);
  for (int f = kFiles; f-- > 0;) parts.push_back(MakeFile(f));  // reverse order: sorted by time
  // CPU time too: the machine running the tests may be busy with other work.
  auto cpu = [] { return static_cast<double>(std::clock()) / CLOCKS_PER_SEC; };
  auto start = std::chrono::steady_clock::now();
  double cpu_start = cpu();
  auto r = CombineReferenceSets(std::move(parts), {});
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  double cpu_seconds = cpu() - cpu_start;
  ASSERT_TRUE(r.ok()) << r.status().ToString();
  uint64_t refs = r->ChunkCount() - 1;  // minus the coordinate chunk
  EXPECT_EQ(refs, uint64_t{3} * kFiles * kSteps);
  EXPECT_EQ(r->urls.size(), static_cast<size_t>(kFiles));
  const ArrayRefs* pr = r->FindArray("pr");
  ASSERT_EQ(pr->size(), uint64_t{kFiles} * kSteps);
  EXPECT_EQ(r->urls[pr->Get(0).url], "s3://bucket/run/file_0000.nc");
  EXPECT_EQ(r->urls[pr->Get(pr->size() - 1).url], "s3://bucket/run/file_0999.nc");
  std::printf(
      "combined %llu references from %d files in %.3f s wall, %.3f s CPU (%.1f M refs/s "
      "wall), %.0f MB held\n",
      static_cast<unsigned long long>(refs), kFiles, seconds, cpu_seconds, refs / seconds / 1e6,
      r->MemoryUsage() / 1e6);
  EXPECT_LT(seconds, 20.0);
}

}  // namespace
}  // namespace kerchunk
