// DetectFileFormat on generated files of every kind, and ScanFile's error for other files.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <fstream>

#include "kerchunk/scan/file_scan.h"
#include "support/hdf5_fixtures.h"
#include "support/scan_fixtures.h"
#include "support/test_env.h"

namespace kerchunk {
namespace {

using ::testing::HasSubstr;
using testing::TempDir;

std::string Write(const TempDir& dir, const std::string& name, const std::string& bytes) {
  std::string path = dir / name;
  std::ofstream(path, std::ios::binary) << bytes;
  return path;
}

TEST(DetectFileFormatTest, Netcdf3Variants) {
  TempDir dir;
  for (char version : {'\x01', '\x02', '\x05'}) {
    std::string path = Write(dir, "v.nc", std::string("CDF") + version + std::string(28, '\0'));
    EXPECT_EQ(*DetectFileFormat(path), FileFormat::kNetcdf3) << int{version};
  }
  EXPECT_EQ(*DetectFileFormat(Write(dir, "v4.nc", "CDF\x04" + std::string(28, '\0'))),
            FileFormat::kUnknown);
}

TEST(DetectFileFormatTest, GeneratedNetcdf4AndNetcdf3Files) {
  TempDir dir;
  testing::SeriesSpec spec;
  spec.files = 1;
  auto nc4 = testing::WriteSeries(dir.path(), spec);
  ASSERT_TRUE(nc4.ok()) << nc4.status().message();
  EXPECT_EQ(*DetectFileFormat(nc4->front()), FileFormat::kHdf5);
  spec.netcdf4 = false;
  spec.prefix = "classic";
  auto nc3 = testing::WriteSeries(dir.path(), spec);
  ASSERT_TRUE(nc3.ok()) << nc3.status().message();
  EXPECT_EQ(*DetectFileFormat(nc3->front()), FileFormat::kNetcdf3);
}

TEST(DetectFileFormatTest, Hdf5AfterAUserBlock) {
  TempDir dir;
  auto path = testing::WriteUserBlockFixture(dir.path());
  ASSERT_TRUE(path.ok()) << path.status().message();
  EXPECT_EQ(*DetectFileFormat(*path), FileFormat::kHdf5);
  // The signature is only looked for at 0 and powers of two from 512.
  std::string sig("\x89HDF\r\n\x1a\n", 8);
  EXPECT_EQ(*DetectFileFormat(Write(dir, "at2048", std::string(2048, 'x') + sig)),
            FileFormat::kHdf5);
  EXPECT_EQ(*DetectFileFormat(Write(dir, "at700", std::string(700, 'x') + sig)),
            FileFormat::kUnknown);
}

TEST(DetectFileFormatTest, EmptyShortAndOtherFilesAreUnknown) {
  TempDir dir;
  EXPECT_EQ(*DetectFileFormat(Write(dir, "empty", "")), FileFormat::kUnknown);
  EXPECT_EQ(*DetectFileFormat(Write(dir, "short", "\x89HD")), FileFormat::kUnknown);
  EXPECT_EQ(*DetectFileFormat(Write(dir, "text", "GRIB....")), FileFormat::kUnknown);
}

TEST(DetectFileFormatTest, MissingFileAndFolderAreErrorsNamingThem) {
  TempDir dir;
  auto missing = DetectFileFormat(dir / "missing.nc");
  ASSERT_FALSE(missing.ok());
  EXPECT_EQ(missing.status().code(), StatusCode::kNotFound);
  EXPECT_THAT(missing.status().message(), HasSubstr("missing.nc"));
  auto folder = DetectFileFormat(dir.path().string());
  ASSERT_FALSE(folder.ok());
  EXPECT_THAT(folder.status().message(), HasSubstr(dir.path().string()));
}

TEST(ScanFileTest, UnknownFormatIsInvalidArgumentNamingTheFile) {
  TempDir dir;
  std::string path = Write(dir, "notes.txt", "just text, not a data file");
  auto result = ScanFile(path, path, {});
  ASSERT_FALSE(result.ok());
  EXPECT_EQ(result.status().code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(result.status().message(), HasSubstr(path));
  EXPECT_THAT(result.status().message(), HasSubstr("not an HDF5"));
}

TEST(ScanFileTest, DispatchesGeneratedFilesToTheirTranslator) {
  TempDir dir;
  testing::SeriesSpec spec;
  spec.files = 1;
  auto nc4 = testing::WriteSeries(dir.path(), spec);
  ASSERT_TRUE(nc4.ok());
  spec.netcdf4 = false;
  spec.prefix = "classic";
  auto nc3 = testing::WriteSeries(dir.path(), spec);
  ASSERT_TRUE(nc3.ok());
  for (const std::string& path : {nc4->front(), nc3->front()}) {
    auto result = ScanFile(path, "file://" + path, {});
    ASSERT_TRUE(result.ok()) << path << ": " << result.status().message();
    EXPECT_NE(result->refs.FindEntry("tas/.zarray"), nullptr) << path;
    EXPECT_EQ(result->refs.urls[0], "file://" + path);
  }
}

// scan's default concat dimension comes from here.
TEST(ScanFileTest, ReportsTheUnlimitedDimension) {
  TempDir dir;
  testing::SeriesSpec spec;
  spec.files = 1;
  spec.time_dim = "record";
  for (bool netcdf4 : {true, false}) {
    spec.netcdf4 = netcdf4;
    spec.prefix = netcdf4 ? "nc4" : "nc3";
    auto paths = testing::WriteSeries(dir.path(), spec);
    ASSERT_TRUE(paths.ok()) << paths.status().message();
    auto result = ScanFile(paths->front(), paths->front(), {});
    ASSERT_TRUE(result.ok()) << result.status().message();
    EXPECT_EQ(result->unlimited_dims, std::vector<std::string>{"record"}) << paths->front();
  }
}

}  // namespace
}  // namespace kerchunk
