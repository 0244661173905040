// `kerchunk scan` and `kerchunk combine` of series whose files carry their own value attributes
// (generated with netCDF-C): refused by default with one line naming the file, the variable, the
// attribute and both values (exit 2, nothing written); --on-attribute-conflict first keeps the
// first file's with a warning per file.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>

#include "cli_testing.h"
#include "kerchunk/json/json_value.h"
#include "kerchunk/json/kerchunk_json.h"
#include "support/packed_fixtures.h"

namespace kerchunk {
namespace {

namespace fs = std::filesystem;
using testing::FilesIn;
using ::testing::HasSubstr;
using ::testing::IsEmpty;
using testing::IsOneLineError;
using testing::RunKerchunk;
using testing::ShellQuote;

class AttributeConflictCliTest : public ::testing::Test {
 protected:
  void SetUp() override { fs::create_directories(out()); }
  std::vector<std::string> Write(const testing::PackedSeriesSpec& spec) {
    auto paths = testing::WritePackedSeries(dir_.path(), spec);
    EXPECT_TRUE(paths.ok()) << paths.status().message();
    return paths.ok() ? *paths : std::vector<std::string>{};
  }
  std::string Inputs(const std::vector<std::string>& paths) {
    std::string args;
    for (const auto& p : paths) args += " " + ShellQuote(p);
    return args;
  }
  fs::path out() const { return dir_.path() / "out"; }
  std::string Out(const std::string& name) const { return ShellQuote((out() / name).string()); }
  // The one-line error of a refused scan; empty (and a test failure) otherwise.
  std::string Refusal(const std::vector<std::string>& paths, const std::string& options = "",
                      const std::string& must_name = "variable \"t2m\"") {
    auto r = RunKerchunk("scan" + Inputs(paths) + options + " -o " + Out("refs.json"));
    EXPECT_TRUE(IsOneLineError(r, "scan", must_name));
    EXPECT_THAT(FilesIn(out()), IsEmpty());
    return r.err;
  }

  testing::TempDir dir_;
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

TEST_F(AttributeConflictCliTest, AgreeingAttributesCombineWithoutWarnings) {
  auto paths = Write(testing::PackedSeriesSpec{});
  auto r = RunKerchunk("scan" + Inputs(paths) + " -o " + Out("refs.json"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.err, ::testing::Not(HasSubstr("warning")));
}

}  // namespace
}  // namespace kerchunk
