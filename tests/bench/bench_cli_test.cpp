// `kerchunk bench` as a user runs it, on tiny generated sets: the JSON output parses and its
// numbers are consistent, the text table has its rows, usage errors exit 2 with one line, the
// scaling mode writes its plot and a reference file can be benchmarked on its own.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>

#include "kerchunk/bench/synthetic_set.h"
#include "kerchunk/json/json_value.h"
#include "kerchunk/json/kerchunk_json.h"
#include "support/test_env.h"

namespace kerchunk {
namespace {

using ::testing::AllOf;
using ::testing::HasSubstr;
using testing::ShellQuote;

testing::CommandResult RunBench(const std::string& args) {
  return testing::RunCommand("timeout 300 " + ShellQuote(testing::KerchunkBinary()) + " bench " +
                             args);
}

const json::Value& Field(const json::Value& v, std::string_view name) {
  static const json::Value kNull;
  const json::Value* f = v.Find(name);
  EXPECT_NE(f, nullptr) << name;
  return f ? *f : kNull;
}

// A number of the report (JSON integers parse as signed or unsigned; compare as doubles).
double Number(const json::Value& v, std::string_view name) { return Field(v, name).as_double(); }

const json::Value* FindStep(const json::Value& set, std::string_view name) {
  for (const json::Value& step : Field(set, "steps").as_array()) {
    if (Field(step, "name").as_string() == name) return &step;
  }
  return nullptr;
}

TEST(BenchCliTest, SyntheticFilesJsonReportIsConsistent) {
  auto r = RunBench("--synthetic 3x12 --vars 2 --missing 0.25 --lookups 100 --format json -q");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "");
  auto doc = json::Value::Parse(r.out);
  ASSERT_TRUE(doc.ok()) << doc.status().message() << "\n" << r.out;
  const json::Value& set = Field(*doc, "sets").as_array().at(0);
  EXPECT_EQ(Field(set, "source").as_string(), "netcdf files");
  EXPECT_EQ(Number(set, "files"), 3);
  EXPECT_GT(Number(set, "data_bytes"), 0);
  // 3 files x (12 t2m + 9 tp) data chunks, plus the lat, lon and combined time coordinates.
  const auto chunks = static_cast<uint64_t>(Number(set, "chunks"));
  EXPECT_EQ(chunks, 3u * (12 + 9) + 3);
  const json::Value* scan = FindStep(set, "scan");
  ASSERT_NE(scan, nullptr);
  EXPECT_EQ(Number(*scan, "refs"), static_cast<double>(chunks));
  EXPECT_EQ(Number(*scan, "bytes"), Number(Field(set, "sizes"), "json"));
  for (const char* name :
       {"load", "write", "pack", "open", "unpack", "lookup", "verify", "verify packed"}) {
    EXPECT_NE(FindStep(set, name), nullptr) << name;
  }
  const json::Value& sizes = Field(set, "sizes");
  for (const char* size : {"json", "packed", "packed_readable"}) {
    EXPECT_GT(Number(sizes, size), 0) << size;
  }
  const json::Value& ratios = Field(sizes, "json_over");
  EXPECT_DOUBLE_EQ(Number(ratios, "packed"), Number(sizes, "json") / Number(sizes, "packed"));
  if (!Field(sizes, "gzip").is_null()) {
    EXPECT_DOUBLE_EQ(Number(ratios, "gzip"), Number(sizes, "json") / Number(sizes, "gzip"));
  }
  EXPECT_GT(Number(Field(*doc, "machine"), "cores"), 0);
}

TEST(BenchCliTest, TextTableHasEveryStepAndTheMachine) {
  auto r = RunBench("--synthetic 2x8 --refs-only --lookups 50 --repeat 2");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, AllOf(HasSubstr("kerchunk bench: synthetic 2 files x 8 chunks x 3 vars "
                                     "(references only)"),
                           HasSubstr("Kerchunk JSON"), HasSubstr("packed --readable"),
                           HasSubstr("refs/s"), HasSubstr("lookup latency: median"),
                           HasSubstr("machine: "), HasSubstr("median of 2 runs")));
  for (const char* step : {"load", "write", "pack", "open", "unpack", "verify packed"}) {
    EXPECT_THAT(r.out, HasSubstr("\n  " + std::string(step) + " ")) << step;
  }
  EXPECT_THAT(r.err, HasSubstr("kerchunk bench: pack"));  // progress without -q
}

TEST(BenchCliTest, UsageErrorsExitTwoWithOneLine) {
  for (const std::string& args :
       {std::string(""), std::string("x.nc --scale 1e4"), std::string("--synthetic 12"),
        std::string("--synthetic 2x8 --gfactor 0.99 --missing 0.5 --vars 1"),
        std::string("--synthetic 2x8 --url-length 60"),
        std::string("--synthetic 2x8 --server-log /etc/hostname"),
        std::string("http://127.0.0.1:1/a.nc --server-log /nonexistent/access.log")}) {
    SCOPED_TRACE(args);
    auto r = RunBench(args);
    EXPECT_EQ(r.exit_code, 2);
    EXPECT_THAT(r.err, HasSubstr("kerchunk bench: error: "));
    EXPECT_EQ(std::count(r.err.begin(), r.err.end(), '\n'), 1) << r.err;
    EXPECT_EQ(r.out, "");
  }
}

TEST(BenchCliTest, ScalingModeWritesThePlotAndOneRowPerSize) {
  testing::TempDir dir;
  const std::string plot = dir / "scale.svg";
  auto r = RunBench("--synthetic 1x30 --refs-only --scale 100,1000 --lookups 20 -q --plot " +
                    ShellQuote(plot));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(std::filesystem::exists(plot));
  EXPECT_THAT(r.out, AllOf(HasSubstr("kerchunk bench --scale"), HasSubstr("plot: " + plot)));
}

TEST(BenchCliTest, AReferenceFileIsBenchmarkedWithoutScan) {
  testing::TempDir dir;
  bench::NetcdfSeriesOptions o;
  o.files = 3;
  o.chunks_per_file = 10;
  auto refs = bench::MakeSyntheticReferenceSet(o);
  ASSERT_TRUE(refs.ok());
  const std::string path = dir / "refs.json";
  ASSERT_TRUE(WriteKerchunkFile(*refs, path).ok());
  auto r = RunBench(ShellQuote(path) + " --format json -q --lookups 20");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto doc = json::Value::Parse(r.out);
  ASSERT_TRUE(doc.ok()) << r.out;
  const json::Value& set = Field(*doc, "sets").as_array().at(0);
  EXPECT_EQ(Field(set, "source").as_string(), "kerchunk json");
  EXPECT_EQ(Number(set, "chunks"), static_cast<double>(refs->ChunkCount()));
  EXPECT_EQ(FindStep(set, "scan"), nullptr);
  EXPECT_NE(FindStep(set, "unpack"), nullptr);
}

TEST(BenchCliTest, ComparePythonSaysWhenKerchunkIsNotImportable) {
  auto probe = testing::RunCommand("PYTHONPATH= /usr/bin/python3 -c 'import kerchunk' 2>&1");
  if (probe.exit_code == 0) GTEST_SKIP() << "kerchunk is importable without a path here";
  if (probe.out.find("No module named") == std::string::npos) GTEST_SKIP() << probe.out;
  auto r = RunBench("--synthetic 2x4 --compare-python /nonexistent/kerchunk -q");
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_THAT(r.err, AllOf(HasSubstr("Python kerchunk is not importable"),
                           HasSubstr("/nonexistent/kerchunk"), HasSubstr("ModuleNotFoundError")));
}

}  // namespace
}  // namespace kerchunk
