// `verify --source` compares what a CF reader sees: an index that decodes a file through other
// scale_factor/add_offset/_FillValue than the file's own (written by
// `scan --on-attribute-conflict first` over per-file packing) fails with exit status 1 and names
// the chunk, the element, both decoded values and both sets of attributes; good indexes pass.
// Times are compared as dates: the time coordinate and its bounds, which combine converts to the
// first file's units and stores inline, are compared with each file's own values and units.
// Series generated with netCDF-C (support/packed_fixtures.h).
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "kerchunk/util/file_io.h"
#include "support/packed_fixtures.h"
#include "verify/verify_testing.h"

namespace kerchunk::testing {
namespace {

using ::testing::HasSubstr;

class CfSourceTest : public ::testing::Test {
 protected:
  // Scans the series of `spec` with `options` and verifies the index with --source.
  CommandResult ScanAndVerify(const PackedSeriesSpec& spec, const std::string& options = "") {
    auto paths = WritePackedSeries(dir_.path(), spec);
    EXPECT_TRUE(paths.ok()) << paths.status().message();
    if (paths.ok()) paths_ = *paths;
    std::string inputs;
    for (const auto& p : paths_) inputs += " " + ShellQuote(p);
    const std::string refs = dir_ / "refs.json";
    CommandResult scan = RunKerchunk("scan", "-q" + inputs + options + " -o " + ShellQuote(refs));
    EXPECT_EQ(scan.exit_code, 0) << scan.err;
    return RunVerify(ShellQuote(refs) + " --source -j 1");
  }

  // Scans `spec`, replaces `from` by `to` in the index text (once; it must occur), and verifies.
  CommandResult ScanEditAndVerify(const PackedSeriesSpec& spec, const std::string& from,
                                  const std::string& to) {
    EXPECT_EQ(ScanAndVerify(spec).exit_code, 0);
    const std::string refs = dir_ / "refs.json";
    std::string text = *ReadFileToString(refs);
    const size_t at = text.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    if (at != std::string::npos) text.replace(at, from.size(), to);
    EXPECT_TRUE(WriteFileAtomically(refs, text).ok());
    return RunVerify(ShellQuote(refs) + " --source -j 1");
  }

  TempDir dir_;
  std::vector<std::string> paths_;
};

TEST_F(CfSourceTest, AgreeingAttributesPass) {
  for (bool netcdf4 : {true, false}) {
    PackedSeriesSpec spec;
    spec.prefix = netcdf4 ? "nc4" : "nc3";
    spec.netcdf4 = netcdf4;
    spec.per_file_units = spec.bounds = true;
    for (bool bounds_units : {false, true}) {
      spec.bounds_units = bounds_units;
      CommandResult r = ScanAndVerify(spec);
      EXPECT_EQ(r.exit_code, 0) << r.out << r.err;
      EXPECT_THAT(r.out, HasSubstr("\nOK"));
      // The inline time and time_bnds chunks (converted to the first file's units) were
      // compared with the files too: nothing is left unchecked.
      EXPECT_THAT(r.out, HasSubstr("  source    ok             10 chunks\n")) << r.out;
    }
  }
}

// Each file counts time in days since its own first day; the index counts in the first file's
// units. An index that names other units shifts every date a reader sees, although the stored
// numbers are the converted ones; time_bnds, without units of its own, shares time's (its
// element (0, 0), 0 in either unit, is the same date).
TEST_F(CfSourceTest, TimeCoordinateInOtherUnitsFails) {
  PackedSeriesSpec spec;
  spec.per_file_units = spec.bounds = true;
  CommandResult r = ScanEditAndVerify(spec, R"(\"units\":\"days since 2000-01-01\")",
                                      R"(\"units\":\"hours since 2000-01-01\")");
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_THAT(r.out, HasSubstr("source: time/0: element (0) reads as 0.5 hours since 2000-01-01 "
                               "through the index's attributes (units \"hours since 2000-01-01\", "
                               "calendar \"standard\") but as 0.5 days since 2000-01-01 through "
                               "those of HDF5 dataset /time in " +
                               paths_[0]));
  EXPECT_THAT(r.out, HasSubstr("source: time/0: element (2) reads as 2.5 hours since 2000-01-01 "
                               "through the index's attributes (units \"hours since 2000-01-01\", "
                               "calendar \"standard\") but as 0.5 days since 2000-01-03 through "
                               "those of HDF5 dataset /time in " +
                               paths_[1]));
  EXPECT_THAT(r.out, HasSubstr("source: time_bnds/0.0: element (0, 1) reads as 1.0 hours since "
                               "2000-01-01 through the index's attributes"));
}

TEST_F(CfSourceTest, OtherCalendarFails) {
  PackedSeriesSpec spec;
  spec.bounds = true;
  CommandResult r =
      ScanEditAndVerify(spec, R"(\"calendar\":\"standard\")", R"(\"calendar\":\"noleap\")");
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_THAT(r.out, HasSubstr("source: time/0: a reader sees other values: calendar \"noleap\" in "
                               "the index but \"standard\" of HDF5 dataset /time in "));
}

TEST_F(CfSourceTest, OtherUnitsOfAVariableFail) {
  PackedSeriesSpec spec;
  CommandResult r = ScanEditAndVerify(spec, R"(\"units\":\"K\")", R"(\"units\":\"degC\")");
  EXPECT_EQ(r.exit_code, 1) << r.out;
  EXPECT_THAT(r.out, HasSubstr("source: t2m/0.0.0: a reader sees other values: units \"degC\" in "
                               "the index but \"K\" of HDF5 dataset /t2m in " +
                               paths_[0]));
}

TEST_F(CfSourceTest, FirstFilesScaleFactorFailsOnTheOtherFiles) {
  PackedSeriesSpec spec;
  spec.scale_factor = {0.01, 0.01, 0.02};
  CommandResult r = ScanAndVerify(spec, " --on-attribute-conflict first");
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  // File 2 holds steps 4 and 5; element (4, 0, 0) is the fill value, (4, 0, 1) the first
  // number: 2013 (290.25 K packed with 0.02), which the index reads with 0.01.
  EXPECT_THAT(r.out,
              HasSubstr("source: t2m/4.0.0: element (4, 0, 1) reads as 270.13 through the "
                        "index's attributes (scale_factor 0.01, add_offset 250.0, "
                        "_FillValue -32767.0) but as 290.26 through those of HDF5 dataset "
                        "/t2m in " +
                        paths_[2] + " (scale_factor 0.02, add_offset 250.0, _FillValue -32767.0)"));
  EXPECT_THAT(r.out, HasSubstr("FAILED: 2 problems (source 2)"));
}

TEST_F(CfSourceTest, NetCdf3FilesAreDecodedWithNetCdfC) {
  PackedSeriesSpec spec;
  spec.netcdf4 = false;
  spec.scale_factor = {0.01, 0.02};
  CommandResult r = ScanAndVerify(spec, " --on-attribute-conflict first");
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_THAT(r.out, HasSubstr("through those of netCDF variable t2m in " + paths_[1] +
                               " (scale_factor 0.02, add_offset 250.0, _FillValue -32767.0)"));
}

TEST_F(CfSourceTest, FirstFilesAddOffsetFails) {
  PackedSeriesSpec spec;
  spec.add_offset = {250.0, 260.0};
  CommandResult r = ScanAndVerify(spec, " --on-attribute-conflict first");
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_THAT(r.out, HasSubstr("source: t2m/2.0.0: element (2, 0, 1) reads as 270.25 through the "
                               "index's attributes (scale_factor 0.01, add_offset 250.0, "));
  EXPECT_THAT(r.out, HasSubstr("but as 280.25 through those of HDF5 dataset /t2m in " + paths_[1] +
                               " (scale_factor 0.01, add_offset 260.0, "));
}

// File 1 marks missing cells with -9999; through the index's _FillValue -32767 a reader sees
// -9999 * 0.01 + 250 instead of a missing value.
TEST_F(CfSourceTest, FirstFilesFillValueFails) {
  PackedSeriesSpec spec;
  spec.fill_value = {-32767, -9999};
  CommandResult r = ScanAndVerify(spec, " --on-attribute-conflict first");
  EXPECT_EQ(r.exit_code, 1) << r.out << r.err;
  EXPECT_THAT(r.out,
              HasSubstr("source: t2m/2.0.0: element (2, 0, 0) reads as 150.01 through the "
                        "index's attributes (scale_factor 0.01, add_offset 250.0, "
                        "_FillValue -32767.0) but as masked through those of HDF5 "
                        "dataset /t2m in " +
                        paths_[1] + " (scale_factor 0.01, add_offset 250.0, _FillValue -9999.0)"));
}

}  // namespace
}  // namespace kerchunk::testing
