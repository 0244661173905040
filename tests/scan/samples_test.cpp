// The committed sample files (data/samples/) are what data/make_samples.cpp writes: regenerated
// files scan to the same references (same offsets, lengths, metadata).
#include <gtest/gtest.h>

#include <filesystem>

#include "kerchunk/scan/file_scan.h"
#include "support/refs_testing.h"
#include "support/test_env.h"

namespace kerchunk {
namespace {

namespace fs = std::filesystem;

TEST(SamplesTest, GeneratorReproducesTheCommittedSamples) {
  fs::path committed = KERCHUNK_SAMPLES_DIR;
  ASSERT_TRUE(fs::is_directory(committed)) << committed;
  testing::TempDir dir;
  auto run = testing::RunCommand(testing::ShellQuote(KERCHUNK_MAKE_SAMPLES) + " " +
                                 testing::ShellQuote(dir.path().string()));
  ASSERT_EQ(run.exit_code, 0) << run.err;
  size_t compared = 0;
  for (const auto& entry : fs::directory_iterator(committed)) {
    std::string name = entry.path().filename().string();
    std::string regenerated = dir / name;
    ASSERT_TRUE(fs::exists(regenerated)) << name << " is committed but no longer generated";
    // Both scanned under the same URL, so only content and layout can differ.
    auto expected = ScanFile(entry.path().string(), name, {});
    auto actual = ScanFile(regenerated, name, {});
    ASSERT_TRUE(expected.ok()) << name << ": " << expected.status().message();
    ASSERT_TRUE(actual.ok()) << name << ": " << actual.status().message();
    EXPECT_GT(expected->refs.entries.size(), 1u) << name;
    EXPECT_TRUE(testing::SameReferences(expected->refs, actual->refs)) << name;
    ++compared;
  }
  size_t generated = std::distance(fs::directory_iterator(dir.path()), fs::directory_iterator());
  EXPECT_EQ(compared, generated) << "the generator writes files that are not committed";
  EXPECT_EQ(compared, 5u);
}

}  // namespace
}  // namespace kerchunk
