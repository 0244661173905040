// Counting what a reference set holds, and the text and JSON summaries.
#include "kerchunk/commands/summary.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "kerchunk/json/json_value.h"

namespace kerchunk {
namespace {

using ::testing::HasSubstr;

ReferenceSet SmallRefs() {
  ReferenceSet refs;
  uint32_t url = refs.urls.Intern("/data/a.nc");
  refs.SetText(".zgroup", R"({"zarr_format":2})");
  refs.SetText("x/.zarray", "{}");
  refs.SetText("y/.zarray", "{}");
  refs.SetText("y/.zattrs", "{}");
  ArrayRefs& x = refs.AddArray("x", *ChunkGrid::Make({4}, {1}));
  x.AddRange(0, url, 100, 10);
  x.AddRange(1, url, 110, 20);
  x.AddInline(2, "abc", true);
  x.AddWholeFile(3, url);
  refs.entries.push_back({"loose", EntryValue{EntryValue::Kind::kRange, "", url, 0, 5}});
  EXPECT_TRUE(refs.Finalize().ok());
  return refs;
}

TEST(CountReferencesTest, CountsArraysChunksReferencedAndInlineBytes) {
  RunSummary summary;
  CountReferences(SmallRefs(), summary);
  EXPECT_EQ(summary.arrays, 2u);
  EXPECT_EQ(summary.chunks, 4u);
  EXPECT_EQ(summary.referenced_bytes, 35u);  // 10 + 20 + the loose 5; whole files unknown
  EXPECT_EQ(summary.inline_bytes, 3u);
}

RunSummary Example() {
  RunSummary s;
  s.command = "scan";
  s.output = "out.json";
  s.inputs = 3;
  s.read = 2;
  s.skipped.push_back({"/d/bad.nc", "/d/bad.nc: truncated"});
  s.warnings.push_back("/d/a.nc: variable x skipped");
  s.concat_dim = "time";
  s.arrays = 5;
  s.chunks = 1000;
  s.referenced_bytes = 3 << 20;
  s.seconds = 0.5;
  s.peak_rss_bytes = 10 << 20;
  return s;
}

TEST(FormatSummaryTest, JsonHoldsEveryField) {
  auto parsed = json::Value::Parse(FormatSummaryJson(Example()));
  ASSERT_TRUE(parsed.ok()) << parsed.status().message();
  const json::Value& v = *parsed;
  EXPECT_EQ(v.Find("command")->as_string(), "scan");
  EXPECT_EQ(v.Find("output")->as_string(), "out.json");
  EXPECT_EQ(v.Find("inputs")->as_double(), 3);
  EXPECT_EQ(v.Find("read")->as_double(), 2);
  ASSERT_EQ(v.Find("skipped")->as_array().size(), 1u);
  EXPECT_EQ(v.Find("skipped")->as_array()[0].Find("path")->as_string(), "/d/bad.nc");
  EXPECT_EQ(v.Find("warnings")->as_array().size(), 1u);
  EXPECT_EQ(v.Find("concat_dim")->as_string(), "time");
  EXPECT_EQ(v.Find("chunks")->as_double(), 1000);
  EXPECT_EQ(v.Find("referenced_bytes")->as_double(), 3 << 20);
  EXPECT_EQ(v.Find("refs_per_second")->as_double(), 2000);
  EXPECT_EQ(v.Find("inputs_per_second")->as_double(), 4);
  EXPECT_EQ(v.Find("peak_rss_bytes")->as_double(), 10 << 20);
  RunSummary none = Example();
  none.concat_dim.clear();
  EXPECT_TRUE(json::Value::Parse(FormatSummaryJson(none))->Find("concat_dim")->is_null());
}

TEST(FormatSummaryTest, TextNamesOutputCountsAndSkippedFiles) {
  std::string text = FormatSummaryText(Example());
  EXPECT_THAT(text, HasSubstr("kerchunk scan: wrote out.json"));
  EXPECT_THAT(text, HasSubstr("2 read, 1 skipped"));
  EXPECT_THAT(text, HasSubstr("1000 references to 3.0 MiB"));
  EXPECT_THAT(text, HasSubstr("2000 refs/s"));
  EXPECT_THAT(text, HasSubstr("/d/bad.nc: truncated"));
}

// Remote files add what reading them cost; local runs print exactly what they printed before.
TEST(FormatSummaryTest, RemoteFilesAddRequestsBytesAndSecondsPerFile) {
  RunSummary local = Example();
  local.files = {{"/d/a.nc", false, 0, 0, 0, 100, 0.5}};
  EXPECT_EQ(json::Value::Parse(FormatSummaryJson(local))->Find("files"), nullptr);
  EXPECT_THAT(FormatSummaryText(local), ::testing::Not(HasSubstr("fetched")));
  RunSummary remote = local;
  remote.files.push_back({"s3://b/x.nc", true, 1, 4096, 0, 4096, 0.25});
  remote.files.push_back({"s3://b/y.nc", true, 3, 10 << 20, 2, 20 << 20, 1.5});
  remote.files.push_back({"s3://b/z.nc", true, 2, 1000, 0, 1000, 0.125});
  remote.combine_requests = 3;
  remote.combine_bytes_fetched = 300;
  auto parsed = json::Value::Parse(FormatSummaryJson(remote));
  ASSERT_TRUE(parsed.ok());
  EXPECT_EQ(parsed->Find("requests")->as_uint(), 9u);  // 6 to scan + 3 to combine
  EXPECT_EQ(parsed->Find("bytes_fetched")->as_uint(), 4096u + (10 << 20) + 1000 + 300);
  EXPECT_EQ(parsed->Find("combine_requests")->as_uint(), 3u);
  const auto& files = parsed->Find("files")->as_array();
  ASSERT_EQ(files.size(), 4u);
  EXPECT_EQ(files[2].Find("path")->as_string(), "s3://b/y.nc");
  EXPECT_EQ(files[2].Find("requests")->as_uint(), 3u);
  EXPECT_EQ(files[2].Find("retries")->as_uint(), 2u);
  EXPECT_EQ(files[2].Find("size")->as_uint(), 20u << 20);
  EXPECT_EQ(files[2].Find("seconds")->as_double(), 1.5);
  const std::string text = FormatSummaryText(remote);
  EXPECT_THAT(text, HasSubstr("fetched  6 requests, 10.0 MiB from 3 remote files (per file: "
                              "median 2 requests, max 3; slowest 1.500 s)"));
  EXPECT_THAT(text, HasSubstr("3 requests, 300 B to combine"));
  EXPECT_THAT(text, HasSubstr("2 requests repeated after transient failures"));
}

TEST(PeakRssTest, IsPlausible) {
  uint64_t rss = PeakRssBytes();
  EXPECT_GT(rss, 1u << 20);
  EXPECT_LT(rss, uint64_t{1} << 40);
}

}  // namespace
}  // namespace kerchunk
