// `kerchunk scan` and `kerchunk combine` of file sets that differ along a dimension they do not
// have (an ensemble: one file per member, generated with netCDF-C), and of files that overlap
// along the one they have: no silent loss (a file entirely covered by another is refused, exit 2,
// naming both), --on-overlap, --concat-dim member --coord member=..., several --concat-dim and
// --coord DIM=data:VAR.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>

#include "cli_testing.h"
#include "kerchunk/json/json_value.h"
#include "kerchunk/util/file_io.h"
#include "support/scan_fixtures.h"

namespace kerchunk {
namespace {

namespace fs = std::filesystem;
using testing::FilesIn;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using testing::IsOneLineError;
using testing::RunKerchunk;
using testing::ShellQuote;

class NewDimensionCliTest : public testing::CliTest {
 protected:
  // Members 0..n-1 of an ensemble, `files` time slices each, every file named by its member.
  std::vector<std::string> Ensemble(int members, int files = 1, bool variant_label = true) {
    std::vector<std::string> all;
    for (int m = 0; m < members; ++m) {
      testing::SeriesSpec spec;
      spec.prefix = fmt::format("tas_r{}i1p1f1", m + 1);
      spec.files = files;
      spec.member = m;
      spec.variant_label = variant_label;
      auto paths = Write(spec);
      all.insert(all.end(), paths.begin(), paths.end());
    }
    return all;
  }
  std::vector<std::string> Write(const testing::SeriesSpec& spec) {
    auto paths = testing::WriteSeries(dir_.path(), spec);
    EXPECT_TRUE(paths.ok()) << paths.status().message();
    return paths.ok() ? *paths : std::vector<std::string>{};
  }

  // The "refs" object of a written reference file.
  json::Value Refs(const std::string& name) const {
    auto text = ReadFileToString((out() / name).string());
    EXPECT_TRUE(text.ok());
    auto doc = json::Value::Parse(text.ok() ? *text : "{}");
    EXPECT_TRUE(doc.ok());
    const json::Value* refs = doc.ok() ? doc->Find("refs") : nullptr;
    return refs ? *refs : json::Value::MakeObject();
  }
  // A metadata document of the reference file, parsed.
  json::Value Metadata(const json::Value& refs, const std::string& key) const {
    const json::Value* v = refs.Find(key);
    EXPECT_TRUE(v && v->is_string()) << key;
    auto doc = json::Value::Parse(v && v->is_string() ? v->as_string() : "{}");
    return doc.ok() ? *doc : json::Value::MakeObject();
  }
  // The file a chunk key refers to.
  static std::string FileOf(const json::Value& refs, const std::string& key) {
    const json::Value* v = refs.Find(key);
    if (!v || !v->is_array() || v->as_array().empty()) return "(no reference " + key + ")";
    return fs::path(v->as_array()[0].as_string()).filename().string();
  }
};

TEST_F(NewDimensionCliTest, EnsembleWithoutItsDimensionIsRefusedWithAHint) {
  auto files = Ensemble(4);
  auto r = RunKerchunk("scan -q" + Inputs(files) + " -o " + Out("ens.json"));
  EXPECT_TRUE(IsOneLineError(r, "scan", "tas_r1i1p1f1_000.nc"));
  EXPECT_THAT(r.err, HasSubstr("adds nothing along \"time\""));
  EXPECT_THAT(r.err, HasSubstr("tas_r2i1p1f1_000.nc"));
  EXPECT_THAT(r.err, HasSubstr("--concat-dim member --coord member=attr:variant_label"));
  EXPECT_THAT(FilesIn(out()), IsEmpty());
}

// Every member lands at its own position of "member" (strings in input order, stored inline as
// fixed-width unicode); tas gains the leading dimension with chunk extent 1; lat, lon and time
// stay as they are.
TEST_F(NewDimensionCliTest, EnsembleAlongMemberFromAGlobalAttribute) {
  auto files = Ensemble(4);
  auto r =
      RunKerchunk("scan -q" + Inputs(files) +
                  " --concat-dim member --coord member=attr:variant_label -o " + Out("ens.json"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  json::Value refs = Refs("ens.json");
  json::Value member = Metadata(refs, "member/.zarray");
  EXPECT_EQ(member.Find("dtype")->as_string(), "<U8");
  EXPECT_EQ(member.Find("shape")->Dump(), "[4]");
  json::Value tas = Metadata(refs, "tas/.zarray");
  EXPECT_EQ(tas.Find("shape")->Dump(), "[4,4,6,8]");
  EXPECT_EQ(tas.Find("chunks")->Dump(), "[1,1,3,4]");
  EXPECT_EQ(Metadata(refs, "tas/.zattrs").Find("_ARRAY_DIMENSIONS")->Dump(),
            R"(["member","time","lat","lon"])");
  for (int m = 0; m < 4; ++m) {
    EXPECT_EQ(FileOf(refs, fmt::format("tas/{}.3.1.1", m)),
              fmt::format("tas_r{}i1p1f1_000.nc", m + 1));
  }
  EXPECT_EQ(Metadata(refs, "lat/.zarray").Find("shape")->Dump(), "[6]");
  EXPECT_EQ(Metadata(refs, "time/.zarray").Find("shape")->Dump(), "[4]");
  EXPECT_EQ(Metadata(refs, "time/.zattrs").Find("_ARRAY_DIMENSIONS")->Dump(), R"(["time"])");
}

// The member only in the file name: path:REGEX takes the first capture group; index numbers
// the files.
TEST_F(NewDimensionCliTest, EnsembleAlongMemberFromTheFileNameOrIndex) {
  auto files = Ensemble(3, 1, /*variant_label=*/false);
  auto r =
      RunKerchunk("scan -q" + Inputs(files) +
                  " --concat-dim member --coord 'member=path:_(r[0-9]+)i' -o " + Out("path.json"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  json::Value refs = Refs("path.json");
  EXPECT_EQ(Metadata(refs, "member/.zarray").Find("dtype")->as_string(), "<U2");
  EXPECT_EQ(FileOf(refs, "tas/2.0.0.0"), "tas_r3i1p1f1_000.nc");

  r = RunKerchunk("scan -q" + Inputs(files) + " --concat-dim member --coord member=index -o " +
                  Out("index.json"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  refs = Refs("index.json");
  EXPECT_EQ(Metadata(refs, "member/.zarray").Find("dtype")->as_string(), "<i8");
  EXPECT_EQ(FileOf(refs, "tas/1.0.0.0"), "tas_r2i1p1f1_000.nc");
}

// 2 members x 3 time slices: grouped by member, each group concatenated along time.
TEST_F(NewDimensionCliTest, MemberByTimeGrid) {
  auto files = Ensemble(2, 3);
  auto r = RunKerchunk("scan -q" + Inputs(files) +
                       " --concat-dim member --concat-dim time --coord member=attr:variant_label"
                       " -o " +
                       Out("grid.json"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  json::Value refs = Refs("grid.json");
  EXPECT_EQ(Metadata(refs, "tas/.zarray").Find("shape")->Dump(), "[2,12,6,8]");
  EXPECT_EQ(Metadata(refs, "time/.zarray").Find("shape")->Dump(), "[12]");
  EXPECT_EQ(FileOf(refs, "tas/0.11.0.0"), "tas_r1i1p1f1_002.nc");
  EXPECT_EQ(FileOf(refs, "tas/1.4.0.0"), "tas_r2i1p1f1_001.nc");

  // The same from `kerchunk combine` of one reference file per member.
  for (int m = 0; m < 2; ++m) {
    std::vector<std::string> member(files.begin() + 3 * m, files.begin() + 3 * m + 3);
    auto part = RunKerchunk("scan -q" + Inputs(member) + " --concat-dim time -o " +
                            Out(fmt::format("m{}.json", m)));
    ASSERT_EQ(part.exit_code, 0) << part.err;
  }
  auto c = RunKerchunk("combine -q " + Out("m0.json") + " " + Out("m1.json") +
                       " --concat-dim member --coord member=attr:variant_label -o " +
                       Out("combined.json"));
  ASSERT_EQ(c.exit_code, 0) << c.err;
  json::Value combined = Refs("combined.json");
  EXPECT_EQ(Metadata(combined, "tas/.zarray").Dump(), Metadata(refs, "tas/.zarray").Dump());
  EXPECT_EQ(FileOf(combined, "tas/1.4.0.0"), "tas_r2i1p1f1_001.nc");
  EXPECT_EQ(combined.Find("member/0")->Dump(), refs.Find("member/0")->Dump());
}

// Shards of an ensemble along "member" merge into what one scan writes (the parts' member
// coordinates are strings; combine keeps their order).
TEST_F(NewDimensionCliTest, EnsembleShardsCombineToTheFullScan) {
  auto files = Ensemble(5);
  const std::string options = " -q --concat-dim member --coord member=attr:variant_label";
  auto full = RunKerchunk("scan" + Inputs(files) + options + " -o " + Out("full.json"));
  ASSERT_EQ(full.exit_code, 0) << full.err;
  for (int k = 0; k < 3; ++k) {
    auto part = RunKerchunk("scan" + Inputs(files) + options + fmt::format(" --shard {}/3", k) +
                            " -o " + Out(fmt::format("part-{}.json", k)));
    ASSERT_EQ(part.exit_code, 0) << part.err;
  }
  auto merged = RunKerchunk("combine " + Out("part-0.json") + " " + Out("part-1.json") + " " +
                            Out("part-2.json") + options + " -o " + Out("merged.json"));
  ASSERT_EQ(merged.exit_code, 0) << merged.err;
  EXPECT_EQ(Refs("merged.json").Dump(), Refs("full.json").Dump());
  // A member in two parts is an overlap: refused by default.
  auto twice = RunKerchunk("combine " + Out("part-0.json") + " " + Out("part-0.json") + options +
                           " -o " + Out("twice.json"));
  EXPECT_TRUE(IsOneLineError(twice, "combine", "adds nothing along \"member\""));
  // Several concat dimensions cannot be sharded yet.
  auto grid = RunKerchunk("scan" + Inputs(files) + options + " --concat-dim time --shard 0/2 -o " +
                          Out("grid.json"));
  EXPECT_TRUE(IsOneLineError(grid, "scan", "--shard with several --concat-dim"));
}

// The same file content twice (two names): refused by default naming both, kept once as
// --on-overlap says.
TEST_F(NewDimensionCliTest, CompleteOverlapAlongTime) {
  testing::SeriesSpec a;
  a.prefix = "a";
  a.files = 1;
  testing::SeriesSpec b = a;
  b.prefix = "b";
  auto files = Write(a);
  auto more = Write(b);
  files.insert(files.end(), more.begin(), more.end());
  auto r = RunKerchunk("scan -q" + Inputs(files) + " -o " + Out("x.json"));
  EXPECT_TRUE(IsOneLineError(r, "scan", "a_000.nc"));
  EXPECT_THAT(r.err, HasSubstr("b_000.nc"));
  EXPECT_THAT(FilesIn(out()), IsEmpty());

  r = RunKerchunk("scan" + Inputs(files) + " --on-overlap later -o " + Out("later.json"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.err, HasSubstr("the later input"));
  EXPECT_EQ(FileOf(Refs("later.json"), "tas/0.0.0"), "b_000.nc");
  r = RunKerchunk("scan -q" + Inputs(files) + " --on-overlap earlier -o " + Out("earlier.json"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(FileOf(Refs("earlier.json"), "tas/3.0.0"), "a_000.nc");
}

// Two runs sharing a boundary step: the later file's chunk by default (warned), the earlier
// one's with --on-overlap earlier, refused with --on-overlap error.
TEST_F(NewDimensionCliTest, PartialOverlapAlongTime) {
  testing::SeriesSpec a;
  a.prefix = "run";
  a.files = 1;
  testing::SeriesSpec b = a;
  b.first_file = 1;
  b.time_shift = -1;  // starts at a's last step
  auto files = Write(a);
  auto more = Write(b);
  files.insert(files.end(), more.begin(), more.end());
  auto r = RunKerchunk("scan" + Inputs(files) + " -o " + Out("default.json"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.err, HasSubstr("overlap at 1 position of \"time\"; the later input"));
  json::Value refs = Refs("default.json");
  EXPECT_EQ(Metadata(refs, "tas/.zarray").Find("shape")->Dump(), "[7,6,8]");
  EXPECT_EQ(FileOf(refs, "tas/3.0.0"), "run_001.nc");

  r = RunKerchunk("scan -q" + Inputs(files) + " --on-overlap earlier -o " + Out("earlier.json"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(FileOf(Refs("earlier.json"), "tas/3.0.0"), "run_000.nc");
  EXPECT_EQ(FileOf(Refs("earlier.json"), "tas/4.0.0"), "run_001.nc");

  r = RunKerchunk("scan -q" + Inputs(files) + " --on-overlap error -o " + Out("error.json"));
  EXPECT_TRUE(IsOneLineError(r, "scan", "run_000.nc"));
  EXPECT_FALSE(fs::exists(out() / "error.json"));
}

// NEMO writes time_counter = 0, 1, ... in every file and the real time in time_centered: by
// default the files overlap completely; data:time_centered places them.
TEST_F(NewDimensionCliTest, ExistingDimensionFromAnotherVariable) {
  testing::SeriesSpec spec;
  spec.prefix = "nemo";
  spec.time_dim = "time_counter";
  spec.nemo_time = true;
  auto files = Write(spec);
  auto r = RunKerchunk("scan -q" + Inputs(files) + " -o " + Out("x.json"));
  EXPECT_TRUE(IsOneLineError(r, "scan", "adds nothing along \"time_counter\""));
  r = RunKerchunk("scan -q" + Inputs(files) +
                  " --concat-dim time_counter --coord time_counter=data:time_centered -o " +
                  Out("nemo.json"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  json::Value refs = Refs("nemo.json");
  EXPECT_EQ(Metadata(refs, "tas/.zarray").Find("shape")->Dump(), "[12,6,8]");
  EXPECT_EQ(FileOf(refs, "tas/9.0.0"), "nemo_002.nc");
  EXPECT_EQ(Metadata(refs, "time_counter/.zattrs").Find("units")->as_string(),
            "days since 2000-01-01");
}

// verify --source compares each member's chunks with its own file; swapping the references of
// two members (same layout, other values) is found.
TEST_F(NewDimensionCliTest, VerifySourceComparesEachMemberWithItsFile) {
  auto files = Ensemble(3, 2);
  auto r = RunKerchunk("scan -q" + Inputs(files) +
                       " --concat-dim member --concat-dim time --coord member=attr:variant_label"
                       " -o " +
                       Out("ens.json"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto verify = RunKerchunk("verify " + Out("ens.json") + " --source");
  EXPECT_EQ(verify.exit_code, 0) << verify.out << verify.err;
  EXPECT_THAT(verify.out, HasSubstr("source    ok"));

  auto text = ReadFileToString((out() / "ens.json").string());
  ASSERT_TRUE(text.ok());
  auto doc = json::Value::Parse(*text);
  ASSERT_TRUE(doc.ok());
  json::Value* refs = doc->Find("refs");
  ASSERT_NE(refs, nullptr);
  json::Value first = *refs->Find("tas/1.5.1.1"), second = *refs->Find("tas/2.5.1.1");
  refs->Set("tas/1.5.1.1", second);
  refs->Set("tas/2.5.1.1", first);
  ASSERT_TRUE(WriteFileAtomically((out() / "swapped.json").string(), doc->Dump()).ok());
  verify = RunKerchunk("verify " + Out("swapped.json") + " --source");
  EXPECT_EQ(verify.exit_code, 1) << verify.out << verify.err;
  EXPECT_THAT(verify.out, HasSubstr("source: tas/2.5.1.1"));
}

TEST_F(NewDimensionCliTest, UsageErrors) {
  auto files = Ensemble(2);
  struct Case {
    std::string options, names;
  } cases[] = {
      {" --concat-dim member", "--coord member=attr:NAME"},
      {" --coord member=attr:variant_label", "\"member\" is not a --concat-dim"},
      {" --concat-dim member --coord member=attribute:x", "expected attr:NAME"},
      {" --concat-dim member --coord 'member=path:(['", "does not compile"},
      {" --concat-dim member --coord member=attr:nope", "no global attribute \"nope\""},
      {" --concat-dim time --concat-dim member --coord member=index",
       "only the last --concat-dim may be one they have"},
      {" --concat-dim member --coord member=data:tas", "data: takes the values of a dimension"},
  };
  for (const Case& c : cases) {
    auto r = RunKerchunk("scan -q" + Inputs(files) + c.options + " -o " + Out("x.json"));
    EXPECT_TRUE(IsOneLineError(r, "scan", c.names)) << c.options;
  }
  EXPECT_THAT(FilesIn(out()), IsEmpty());
}

}  // namespace
}  // namespace kerchunk
