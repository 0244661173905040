// --compare-python against a real Python kerchunk checkout (KERCHUNK_PYTHON_PATH): on a small
// generated series both tools write the same chunk references, so the ratios are reported.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <sstream>

#include "kerchunk/bench/bench.h"

namespace kerchunk::bench {
namespace {

TEST(PythonCompareTest, SameReferencesAsPythonKerchunkOnASyntheticSeries) {
  const char* path = std::getenv("KERCHUNK_PYTHON_PATH");
  if (path == nullptr || *path == '\0') {
    GTEST_SKIP() << "set KERCHUNK_PYTHON_PATH to a kerchunk checkout (e.g. 0.2.2)";
  }
  BenchOptions o;
  SyntheticSpec spec;
  spec.series.files = 3;
  spec.series.chunks_per_file = 20;
  o.synthetic = spec;
  o.python = PythonCompareOptions{};
  o.lookups = 50;
  o.compressors = false;
  o.quiet = true;
  std::ostringstream out, err;
  auto report = RunBench(o, out, err);
  ASSERT_TRUE(report.ok()) << report.status().message();
  ASSERT_TRUE(report->sets[0].comparison.has_value());
  const PythonComparison& c = *report->sets[0].comparison;
  EXPECT_TRUE(c.comparable);
  EXPECT_EQ(c.their_chunks, report->sets[0].chunks);
  EXPECT_EQ(c.differing_chunks, 0u);
  EXPECT_GT(c.python.json_bytes, 0u);
  EXPECT_GT(c.python.scan_seconds, 0);
  EXPECT_THAT(out.str(), ::testing::HasSubstr("Python kerchunk"));
}

}  // namespace
}  // namespace kerchunk::bench
