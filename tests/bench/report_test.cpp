// Measurement and report helpers, the JSON report of a tiny run (its numbers agree with each
// other), and the scaling mode's plot.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>

#include "bench/format.h"
#include "bench/svg_plot.h"
#include "kerchunk/bench/bench.h"
#include "kerchunk/bench/measure.h"
#include "kerchunk/json/json_value.h"
#include "kerchunk/util/file_io.h"
#include "support/test_env.h"

namespace kerchunk::bench {
namespace {

using ::testing::ElementsAre;
using ::testing::HasSubstr;

TEST(MeasureTest, MedianAndPercentile) {
  EXPECT_EQ(Median({}), 0);
  EXPECT_EQ(Median({3, 1, 2}), 2);
  EXPECT_EQ(Median({4, 1, 3, 2}), 2.5);
  std::vector<double> hundred;
  for (int i = 1; i <= 100; ++i) hundred.push_back(i);
  EXPECT_EQ(Percentile(hundred, 99), 99);
  EXPECT_EQ(Percentile(hundred, 100), 100);
  EXPECT_EQ(Percentile(hundred, 0), 1);
  EXPECT_EQ(Percentile({5}, 99), 5);
}

TEST(MeasureTest, StepMeterSeesMemoryAllocatedDuringTheStep) {
  StepMeter meter;
  std::vector<char> block(64 << 20, 1);  // touched: resident
  meter.Stop();
  EXPECT_GE(meter.peak_rss_bytes(), meter.start_rss_bytes());
  if (meter.per_step_peak()) {
    EXPECT_GE(meter.peak_rss_bytes() - meter.start_rss_bytes(), uint64_t{60} << 20);
  }
  EXPECT_EQ(block[12345], 1);
}

TEST(FormatTest, NumbersForTables) {
  EXPECT_EQ(internal::Count(2900014), "2,900,014");
  EXPECT_EQ(internal::Count(999), "999");
  EXPECT_EQ(internal::Bytes(512), "512 B");
  EXPECT_EQ(internal::Bytes(1536), "1.50 KiB");
  EXPECT_EQ(internal::Duration(0.0123), "12.3 ms");
  EXPECT_EQ(internal::Duration(2.1), "2.10 s");
  EXPECT_EQ(internal::Duration(8.5e-7), "850 ns");
  EXPECT_EQ(internal::Rate(1.38e6), "1.38 M/s");
  EXPECT_EQ(internal::Sig3(0.8123), "0.812");
  EXPECT_EQ(internal::TextTable({{"a", "bb"}, {"ccc", "d"}}, 0), "a    bb\nccc   d\n");
}

TEST(BenchOptionsTest, SyntheticSizeAndScaleLists) {
  auto size = ParseSyntheticSize("1000x1e3");
  ASSERT_TRUE(size.ok());
  EXPECT_EQ(size->first, 1000u);
  EXPECT_EQ(size->second, 1000u);
  EXPECT_THAT(ParseSyntheticSize("1000").status().message(), HasSubstr("FILESxCHUNKS"));
  EXPECT_THAT(ParseSyntheticSize("0x5").status().message(), HasSubstr("whole number >= 1"));
  auto scale = ParseScaleList("1e4, 1e5,2500000");
  ASSERT_TRUE(scale.ok());
  EXPECT_THAT(*scale, ElementsAre(10000u, 100000u, 2500000u));
  EXPECT_FALSE(ParseScaleList("1e4,,1e5").ok());
  EXPECT_FALSE(ParseScaleList("1.5").ok());
}

TEST(BenchOptionsTest, UsageErrors) {
  std::ostringstream out, err;
  BenchOptions none;
  EXPECT_THAT(RunBench(none, out, err).status().message(), HasSubstr("nothing to benchmark"));
  BenchOptions scale_alone;
  scale_alone.inputs = {"x.nc"};
  scale_alone.scale = {100};
  EXPECT_THAT(RunBench(scale_alone, out, err).status().message(), HasSubstr("--scale needs"));
  BenchOptions python_refs;
  python_refs.synthetic = SyntheticSpec{{}, true, 0};
  python_refs.python = PythonCompareOptions{};
  EXPECT_THAT(RunBench(python_refs, out, err).status().message(),
              HasSubstr("--compare-python needs data files"));
}

const json::Value& Field(const json::Value& v, std::string_view name) {
  const json::Value* f = v.Find(name);
  EXPECT_NE(f, nullptr) << name;
  static const json::Value kNull;
  return f ? *f : kNull;
}

// A number of the report (JSON integers parse as signed or unsigned; compare as doubles).
double Number(const json::Value& v, std::string_view name) { return Field(v, name).as_double(); }

TEST(BenchReportTest, JsonNumbersAgreeWithEachOther) {
  BenchOptions o;
  SyntheticSpec spec;
  spec.series.files = 4;
  spec.series.chunks_per_file = 30;
  spec.refs_only = true;
  o.synthetic = spec;
  o.repeat = 3;
  o.lookups = 200;
  o.quiet = true;
  o.format = OutputFormat::kJson;
  std::ostringstream out, err;
  auto report = RunBench(o, out, err);
  ASSERT_TRUE(report.ok()) << report.status().message();
  auto doc = json::Value::Parse(out.str());
  ASSERT_TRUE(doc.ok()) << doc.status().message();
  const json::Value& set = Field(*doc, "sets").as_array().at(0);
  const auto chunks = static_cast<uint64_t>(Number(set, "chunks"));
  EXPECT_EQ(chunks, report->sets[0].chunks);
  EXPECT_GT(chunks, 4u * 30 * 2);
  EXPECT_EQ(Number(set, "files"), 4);
  const json::Value& sizes = Field(set, "sizes");
  const double json_bytes = Number(sizes, "json");
  const double packed = Number(sizes, "packed");
  EXPECT_GT(packed, 0);
  EXPECT_GT(json_bytes, packed);
  EXPECT_DOUBLE_EQ(Number(Field(sizes, "json_over"), "packed"), json_bytes / packed);
  std::vector<std::string> names;
  for (const json::Value& step : Field(set, "steps").as_array()) {
    names.push_back(Field(step, "name").as_string());
    EXPECT_EQ(Field(step, "seconds").as_array().size(), 3u);
    const double median = Number(step, "median_seconds");
    ASSERT_GT(median, 0) << names.back();
    EXPECT_NEAR(Number(step, "refs_per_second"), Number(step, "refs") / median,
                1e-6 * Number(step, "refs") / median);
    EXPECT_GT(Number(step, "peak_rss_bytes"), 0);
  }
  EXPECT_THAT(names, ElementsAre("load", "write", "pack", "open", "unpack", "lookup", "verify",
                                 "verify packed"));
  const json::Value& lookup = Field(set, "lookup_latency");
  EXPECT_EQ(Number(lookup, "keys"), 200);
  EXPECT_GE(Number(lookup, "p99_ns"), Number(lookup, "median_ns"));
  EXPECT_GT(Number(set, "gfactor"), 0.2);
}

TEST(BenchReportTest, ScalingModeWritesThePlot) {
  testing::TempDir dir;
  BenchOptions o;
  SyntheticSpec spec;
  spec.series.files = 1;
  spec.series.chunks_per_file = 20;
  spec.refs_only = true;
  o.synthetic = spec;
  o.scale = {100, 1000};
  o.plot = dir / "scale.svg";
  o.lookups = 20;
  o.compressors = false;
  o.quiet = true;
  std::ostringstream out, err;
  auto report = RunBench(o, out, err);
  ASSERT_TRUE(report.ok()) << report.status().message();
  ASSERT_EQ(report->sets.size(), 2u);
  EXPECT_LT(report->sets[0].chunks, report->sets[1].chunks);
  EXPECT_THAT(out.str(), HasSubstr("nanoseconds per chunk reference"));
  auto svg = ReadFileToString(dir / "scale.svg");
  ASSERT_TRUE(svg.ok()) << svg.status().message();
  EXPECT_THAT(*svg, HasSubstr("<svg"));
  EXPECT_THAT(*svg, HasSubstr("unpack"));
  EXPECT_THAT(*svg, HasSubstr("packed --readable"));
  size_t lines = 0;
  for (size_t at = svg->find("<polyline"); at != std::string::npos;
       at = svg->find("<polyline", at + 1)) {
    ++lines;
  }
  // Every step but lookup (a fixed number of keys), then JSON, packed and packed --readable.
  EXPECT_EQ(lines, report->sets[0].steps.size() - 1 + 3);
}

TEST(SvgPlotTest, LeavesOutPointsThatALogScaleCannotShow) {
  internal::Panel panel{"t", "x", "y", {{"a", {{10, 1}, {100, 0}, {1000, 10}}}}};
  std::string svg = internal::LogLogSvg("title & more", {panel});
  EXPECT_THAT(svg, HasSubstr("title &amp; more"));
  const size_t points = svg.find("points=\"");
  ASSERT_NE(points, std::string::npos);
  const std::string list = svg.substr(points, svg.find('"', points + 8) - points);
  EXPECT_EQ(std::count(list.begin(), list.end(), ','), 2);
}

}  // namespace
}  // namespace kerchunk::bench
