// Corpus test: every NetCDF-3 file of ../shared/data (found by its magic number, cross-checked
// with catalogue.json) translates, and every variable matches what netCDF-C reads. The corrupt
// netcdf-c/bad_cdf5_begin.nc, which netCDF-C refuses, fails with an error naming the file.
// No instances when ../shared is absent.
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <netcdf.h>

#include <algorithm>
#include <filesystem>
#include <fstream>

#include "kerchunk/json/json_value.h"
#include "kerchunk/scan/file_scan.h"
#include "kerchunk/util/file_io.h"
#include "netcdf3/netcdf3_oracle.h"
#include "support/test_env.h"

namespace kerchunk {
namespace {

using ::testing::HasSubstr;

constexpr std::string_view kBadCdf5 = "netcdf3/netcdf-c/bad_cdf5_begin.nc";

bool HasNetcdf3Magic(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  char magic[4] = {};
  in.read(magic, 4);
  return in && std::string_view(magic, 3) == "CDF" &&
         (magic[3] == 1 || magic[3] == 2 || magic[3] == 5);
}

// Paths relative to the data folder.
std::vector<std::string> Netcdf3Files() {
  std::vector<std::string> files;
  auto dir = testing::SharedDataDir();
  if (!dir) return files;
  for (auto& e : std::filesystem::recursive_directory_iterator(*dir)) {
    if (e.is_regular_file() && HasNetcdf3Magic(e.path())) {
      files.push_back(std::filesystem::relative(e.path(), *dir).string());
    }
  }
  std::sort(files.begin(), files.end());
  return files;
}

class Netcdf3CorpusTest : public ::testing::TestWithParam<std::string> {};

TEST_P(Netcdf3CorpusTest, TranslatesAndMatchesNetcdfC) {
  KERCHUNK_SKIP_WITHOUT_SHARED_DATA();
  std::string path = (*testing::SharedDataDir() / GetParam()).string();
  auto result = ScanNetcdf3File(path, "data/" + GetParam(), {});
  if (GetParam() == kBadCdf5) {
    ASSERT_FALSE(result.ok());
    EXPECT_TRUE(result.status().code() == StatusCode::kDataLoss ||
                result.status().code() == StatusCode::kInvalidArgument);
    EXPECT_THAT(result.status().message(), HasSubstr(path + ": "));
    std::cout << result.status().message() << "\n";
    int ncid;
    EXPECT_NE(nc_open(path.c_str(), NC_NOWRITE, &ncid), NC_NOERR) << "netCDF-C rejects it too";
    return;
  }
  ASSERT_TRUE(result.ok()) << result.status().message();
  uint64_t compared = 0;
  EXPECT_TRUE(testing::MatchesNetcdfC(path, result->refs, &compared));
  std::cout << GetParam() << ": " << compared << " variables, " << result->refs.ChunkCount()
            << " chunk references compared\n";
}

// The files found by magic number are the catalogue's NetCDF-3 files.
TEST(Netcdf3CorpusCatalogueTest, MagicNumbersAgreeWithCatalogue) {
  KERCHUNK_SKIP_WITHOUT_SHARED_DATA();
  auto text = ReadFileToString((*testing::SharedDataDir() / "catalogue.json").string());
  ASSERT_TRUE(text.ok());
  auto catalogue = json::Value::Parse(*text);
  ASSERT_TRUE(catalogue.ok() && catalogue->is_array());
  std::vector<std::string> listed;
  for (const auto& item : catalogue->as_array()) {
    const json::Value* format = item.Find("format");
    if (format && format->is_string() && format->as_string().starts_with("netCDF3")) {
      listed.push_back(item.Find("path")->as_string());
    }
  }
  std::sort(listed.begin(), listed.end());
  EXPECT_EQ(listed, Netcdf3Files());
  EXPECT_GT(listed.size(), 50u);
}

INSTANTIATE_TEST_SUITE_P(Corpus, Netcdf3CorpusTest, ::testing::ValuesIn(Netcdf3Files()),
                         [](const auto& p) {
                           std::string name = p.param;
                           for (auto& c : name) {
                             if (!isalnum(static_cast<unsigned char>(c))) c = '_';
                           }
                           return name;
                         });
GTEST_ALLOW_UNINSTANTIATED_PARAMETERIZED_TEST(Netcdf3CorpusTest);

}  // namespace
}  // namespace kerchunk
