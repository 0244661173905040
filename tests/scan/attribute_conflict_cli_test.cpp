// `kerchunk scan` and `kerchunk combine` of series whose files carry their own value attributes
// (generated with netCDF-C): refused by default with one line naming the file, the variable, the
// attribute and both values (exit 2, nothing written); --on-attribute-conflict first keeps the
// first file's with a warning per file.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstring>
#include <filesystem>

#include "cli_testing.h"
#include "kerchunk/json/json_value.h"
#include "kerchunk/json/kerchunk_json.h"
#include "kerchunk/refs/zarr_metadata.h"
#include "support/packed_fixtures.h"
#include "support/refs_testing.h"

namespace kerchunk {
namespace {

namespace fs = std::filesystem;
using testing::FilesIn;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using testing::IsOneLineError;
using testing::RunKerchunk;
using testing::ShellQuote;

class AttributeConflictCliTest : public testing::CliTest {
 protected:
  std::vector<std::string> Write(const testing::PackedSeriesSpec& spec) {
    auto paths = testing::WritePackedSeries(dir_.path(), spec);
    EXPECT_TRUE(paths.ok()) << paths.status().message();
    return paths.ok() ? *paths : std::vector<std::string>{};
  }
  // The one-line error of a refused scan; empty (and a test failure) otherwise.
  std::string Refusal(const std::vector<std::string>& paths, const std::string& options = "",
                      const std::string& must_name = "variable \"t2m\"") {
    auto r = RunKerchunk("scan" + Inputs(paths) + options + " -o " + Out("refs.json"));
    EXPECT_TRUE(IsOneLineError(r, "scan", must_name));
    EXPECT_THAT(FilesIn(out()), IsEmpty());
    return r.err;
  }
};

std::string Expected(const std::vector<std::string>& paths, size_t part, const std::string& what) {
  return fmt::format(
      "kerchunk scan: error: part {} ({}): variable \"t2m\": {} in part 0 ({}); the index would "
      "decode this file's values with the first file's attributes (--on-attribute-conflict "
      "first keeps them anyway)\n",
      part, paths[part], what, paths[0]);
}

TEST_F(AttributeConflictCliTest, PerFileScaleFactorIsRefused) {
  testing::PackedSeriesSpec spec;
  spec.scale_factor = {0.01, 0.01, 0.02};
  auto paths = Write(spec);
  EXPECT_EQ(Refusal(paths), Expected(paths, 2, "attribute \"scale_factor\" is 0.02 here but 0.01"));
}

TEST_F(AttributeConflictCliTest, PerFileAddOffsetIsRefused) {
  testing::PackedSeriesSpec spec;
  spec.add_offset = {250.0, 260.0};
  auto paths = Write(spec);
  EXPECT_EQ(Refusal(paths), Expected(paths, 1, "attribute \"add_offset\" is 260.0 here but 250.0"));
}

// HDF5 scans keep _FillValue only as the .zarray fill_value.
TEST_F(AttributeConflictCliTest, PerFileFillValueIsRefused) {
  testing::PackedSeriesSpec spec;
  spec.fill_value = {-32767, -9999};
  auto paths = Write(spec);
  EXPECT_EQ(
      Refusal(paths),
      Expected(paths, 1, "attribute \"_FillValue\" (.zarray fill_value) is -9999 here but -32767"));
}

TEST_F(AttributeConflictCliTest, Float32AndDoubleScaleFactorsAreRefused) {
  testing::PackedSeriesSpec spec;
  spec.float_attributes = {true, false};
  auto paths = Write(spec);
  EXPECT_EQ(Refusal(paths),
            Expected(paths, 1,
                     "attribute \"scale_factor\" is 0.01 here but 0.009999999776482582 (0.01 as a "
                     "32-bit float)"));
}

// The coordinate cannot be placed when calendars differ: an error under both settings.
TEST_F(AttributeConflictCliTest, DifferingCalendarIsRefusedEvenWithFirst) {
  testing::PackedSeriesSpec spec;
  spec.calendar = {"standard", "noleap"};
  auto paths = Write(spec);
  for (const char* option : {"", " --on-attribute-conflict first"}) {
    EXPECT_THAT(Refusal(paths, option, "calendars differ"),
                HasSubstr("part 1 (" + paths[1] +
                          "): coordinate \"time\" (units \"days since "
                          "2000-01-01\", calendar \"noleap\"; first part: "
                          "\"days since 2000-01-01\", \"standard\"): "
                          "calendars differ"));
  }
}

TEST_F(AttributeConflictCliTest, FirstKeepsTheFirstFilesAttributesWithAWarningPerFile) {
  testing::PackedSeriesSpec spec;
  spec.scale_factor = {0.01, 0.02, 0.01};
  spec.add_offset = {250.0, 250.0, 260.0};
  auto paths = Write(spec);
  auto r =
      RunKerchunk("scan" + Inputs(paths) + " --on-attribute-conflict first -o " + Out("refs.json"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.err, HasSubstr("kerchunk scan: warning: part 1 (" + paths[1] +
                               "): value attributes differ from the first part's, which are kept, "
                               "so this file's values read wrongly: \"t2m\" \"scale_factor\" 0.02 "
                               "(first part: 0.01)\n"));
  EXPECT_THAT(r.err, HasSubstr("kerchunk scan: warning: part 2 (" + paths[2] +
                               "): value attributes differ from the first part's, which are kept, "
                               "so this file's values read wrongly: \"t2m\" \"add_offset\" 260.0 "
                               "(first part: 250.0)\n"));
  auto refs = ReadKerchunkFile((out() / "refs.json").string());
  ASSERT_TRUE(refs.ok()) << refs.status().message();
  auto attrs = json::Value::Parse(refs->FindEntry("t2m/.zattrs")->value.data);
  EXPECT_EQ(attrs->Find("scale_factor")->as_double(), 0.01);
  EXPECT_EQ(attrs->Find("add_offset")->as_double(), 250.0);
  EXPECT_EQ(refs->FindArray("t2m")->size(), 6u);
}

TEST_F(AttributeConflictCliTest, CombineOfPerFileReferencesRefusesToo) {
  testing::PackedSeriesSpec spec;
  spec.scale_factor = {0.01, 0.02};
  auto paths = Write(spec);
  std::string parts;
  for (size_t i = 0; i < paths.size(); ++i) {
    std::string part = (dir_.path() / fmt::format("part-{}.json", i)).string();
    auto r = RunKerchunk("scan -q " + ShellQuote(paths[i]) + " -o " + ShellQuote(part));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    parts += " " + ShellQuote(part);
  }
  auto r = RunKerchunk("combine" + parts + " -o " + Out("all.json"));
  EXPECT_TRUE(IsOneLineError(r, "combine", "attribute \"scale_factor\" is 0.02 here but 0.01"));
  EXPECT_THAT(FilesIn(out()), IsEmpty());
  r = RunKerchunk("combine" + parts + " --on-attribute-conflict first -o " + Out("all.json"));
  EXPECT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.err, HasSubstr("kerchunk combine: warning: part 1 ("));
  EXPECT_THAT(FilesIn(out()), ::testing::ElementsAre("all.json"));
}

// The decoded values of the inline one-chunk "<f8" array `path` of `refs`.
std::vector<double> InlineDoubles(const ReferenceSet& refs, const std::string& path) {
  std::vector<double> out;
  const ArrayRefs* a = refs.FindArray(path);
  if (!a || a->size() != 1 || a->Get(0).kind != RefKind::kInline) {
    ADD_FAILURE() << path << " is not one inline chunk";
    return out;
  }
  std::string bytes(a->Get(0).data);
  out.resize(bytes.size() / 8);
  std::memcpy(out.data(), bytes.data(), out.size() * 8);
  return out;
}

// Each file counts from its own date; time_bnds inherits the coordinate's units or has its own
// (as CMIP5 EC-EARTH): both are converted with the coordinate and stored inline.
TEST_F(AttributeConflictCliTest, TimeBoundsAreConvertedWithTheCoordinate) {
  for (bool own_units : {false, true}) {
    testing::PackedSeriesSpec spec;
    spec.prefix = own_units ? "own" : "inherited";
    spec.per_file_units = spec.bounds = true;
    spec.bounds_units = own_units;
    auto paths = Write(spec);
    std::string refs_path = (out() / (spec.prefix + ".json")).string();
    auto r = RunKerchunk("scan" + Inputs(paths) + " -o " + ShellQuote(refs_path));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    EXPECT_THAT(r.err, HasSubstr("\"time_bnds\" (bounds of \"time\") converted with it to \"days "
                                 "since 2000-01-01\" and stored inline"));
    auto refs = ReadKerchunkFile(refs_path);
    ASSERT_TRUE(refs.ok()) << refs.status().message();
    EXPECT_THAT(InlineDoubles(*refs, "time"), ::testing::ElementsAre(0.5, 1.5, 2.5, 3.5, 4.5, 5.5));
    EXPECT_THAT(InlineDoubles(*refs, "time_bnds"),
                ::testing::ElementsAre(0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6));
    auto zarray = ZarrArrayMeta::Parse(refs->FindEntry("time_bnds/.zarray")->value.data);
    ASSERT_TRUE(zarray.ok());
    EXPECT_EQ(zarray->shape, (std::vector<uint64_t>{6, 2}));
    EXPECT_EQ(zarray->chunks, (std::vector<uint64_t>{6, 2}));
  }
}

// Shards store their converted bounds inline with their own chunk shape; combining them
// rebuilds the bounds and gives what one scan of all files gives.
TEST_F(AttributeConflictCliTest, TimeBoundsOfShardsCombineToTheFullScan) {
  testing::PackedSeriesSpec spec;
  spec.files = 5;
  spec.per_file_units = spec.bounds = true;
  auto paths = Write(spec);
  auto full = RunKerchunk("scan -q" + Inputs(paths) + " -o " + Out("full.json"));
  ASSERT_EQ(full.exit_code, 0) << full.err;
  std::string parts;
  for (int k = 0; k < 2; ++k) {
    std::string part = (dir_.path() / fmt::format("part-{}.json", k)).string();
    auto r = RunKerchunk(fmt::format("scan -q{} --shard {}/2 --concat-dim time -o {}",
                                     Inputs(paths), k, ShellQuote(part)));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    parts += " " + ShellQuote(part);
  }
  auto merged = RunKerchunk("combine -q" + parts + " -o " + Out("merged.json"));
  ASSERT_EQ(merged.exit_code, 0) << merged.err;
  auto a = ReadKerchunkFile((out() / "full.json").string());
  auto b = ReadKerchunkFile((out() / "merged.json").string());
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_TRUE(testing::SameReferences(*a, *b));
  EXPECT_EQ(InlineDoubles(*b, "time_bnds").size(), 20u);
}

// Bounds in units that are not fixed-length time units cannot be re-expressed: refused, or
// with --on-attribute-conflict first kept as references in each file's units with a warning.
TEST_F(AttributeConflictCliTest, TimeBoundsThatCannotBeConvertedAreRefused) {
  testing::PackedSeriesSpec spec;
  spec.files = 2;
  spec.per_file_units = spec.bounds = spec.bounds_units = true;
  auto paths = Write(spec);
  std::string parts;
  for (size_t i = 0; i < paths.size(); ++i) {
    std::string part = (dir_.path() / fmt::format("part-{}.json", i)).string();
    auto r = RunKerchunk("scan -q " + ShellQuote(paths[i]) + " -o " + ShellQuote(part));
    ASSERT_EQ(r.exit_code, 0) << r.err;
    if (i == 1) {
      auto refs = ReadKerchunkFile(part);
      ASSERT_TRUE(refs.ok());
      refs->SetText("time_bnds/.zattrs",
                    R"({"_ARRAY_DIMENSIONS":["time","nv"],"calendar":"standard",)"
                    R"("units":"months since 2000-01-01"})");
      ASSERT_TRUE(WriteKerchunkFile(*refs, part).ok());
    }
    parts += " " + ShellQuote(part);
  }
  const std::string why = fmt::format(
      "part 1 ({}): \"time_bnds\", the bounds of the concat coordinate, count in \"months since "
      "2000-01-01\" (calendar \"standard\") but the first part's in \"days since 2000-01-01\" "
      "(\"standard\"), and cannot be converted: ",
      paths[1]);
  auto r = RunKerchunk("combine" + parts + " -o " + Out("all.json"));
  EXPECT_TRUE(IsOneLineError(r, "combine", why));
  EXPECT_THAT(r.err, HasSubstr("(--on-attribute-conflict first keeps each file's values)\n"));
  EXPECT_THAT(FilesIn(out()), IsEmpty());
  r = RunKerchunk("combine" + parts + " --on-attribute-conflict first -o " + Out("all.json"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.err, HasSubstr("kerchunk combine: warning: " + why));
  EXPECT_THAT(r.err, HasSubstr("; kept in each file's units\n"));
  auto refs = ReadKerchunkFile((out() / "all.json").string());
  ASSERT_TRUE(refs.ok());
  EXPECT_EQ(refs->FindArray("time_bnds")->Get(0).kind, RefKind::kRange);
}

TEST_F(AttributeConflictCliTest, AgreeingAttributesCombineWithoutWarnings) {
  auto paths = Write(testing::PackedSeriesSpec{});
  auto r = RunKerchunk("scan" + Inputs(paths) + " -o " + Out("refs.json"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.err, ::testing::Not(HasSubstr("warning")));
}

}  // namespace
}  // namespace kerchunk
