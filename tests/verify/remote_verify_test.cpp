// `kerchunk verify --files/--deep/--source` on indexes whose URLs are http:// (label client):
// Debian's nginx on 127.0.0.1 serves copies of shared corpus files and of a shared time series.
// The remote verify reaches the verdicts of the local one, catches a byte-flipped copy (decode),
// a truncated one (a range past the end) and a missing one (404, naming the URL), and keeps to
// the documented number of requests per file (docs/verify.md "Remote files"), counted in
// nginx's access log.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>

#include "io/test_servers.h"
#include "kerchunk/json/json_value.h"
#include "support/test_env.h"
#include "verify/verify_testing.h"

namespace kerchunk::testing {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

// The files served: a shared netCDF-4 time series, a netCDF-3 file and an HDF5 file whose
// chunks carry fletcher32 checksums (read with the chunk, beyond its referenced length).
constexpr const char* kSeries = "timeseries/nc4_cmip6_siconc_GFDL-ESM4_mon_2files";
const std::vector<std::string> kSingles = {
    "timeseries/nc3_cmip5_tas_EC-EARTH_mon_16files/"
    "tas_Amon_EC-EARTH_historical_r1i1p1_185001-185912.nc",
    "index_types/jhdf/fletcher32_datasets_latest.hdf5"};

// The bound this test holds remote verify to, per file (docs/verify.md): --files is one HEAD;
// --deep and --source add the file's head (4 MiB: all of these files) for libhdf5 and one
// coalesced request per array with chunks in the file.
uint64_t RequestBound(uint64_t arrays) { return 2 + arrays; }

uint64_t Count(const json::Value& doc, const char* check, const char* field) {
  const json::Value* c = doc.Find("checks");
  c = c ? c->Find(check) : nullptr;
  c = c ? c->Find(field) : nullptr;
  return c && c->is_number() ? static_cast<uint64_t>(c->as_double()) : UINT64_MAX;
}

class RemoteVerifyTest : public ::testing::Test {
 protected:
  void SetUp() override {
    KERCHUNK_SKIP_WITHOUT_SHARED_DATA();
    if (std::string why = NginxUnavailable(); !why.empty()) GTEST_SKIP() << why;
    root_ = dir_.path() / "root";
    const fs::path data = *SharedDataDir();
    fs::create_directories(root_ / kSeries);
    for (const auto& e : fs::directory_iterator(data / kSeries)) {
      fs::copy_file(e.path(), root_ / kSeries / e.path().filename());
      series_.push_back(std::string(kSeries) + "/" + e.path().filename().string());
    }
    std::sort(series_.begin(), series_.end());
    for (const std::string& name : kSingles) {
      fs::create_directories((root_ / name).parent_path());
      fs::copy_file(data / name, root_ / name);
    }
    fs::create_directories(dir_.path() / "nginx");
    nginx_ = std::make_unique<Nginx>(root_, dir_.path() / "nginx");
    for (int i = 0; i < 100; ++i) {
      if (RunCommand("curl -s -o /dev/null " + nginx_->base() + "/").exit_code == 0) {
        nginx_->WaitForRequests(1);
        return;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    GTEST_SKIP() << "nginx did not start";
  }

  // Every request (GET and HEAD) nginx has logged so far.
  uint64_t LoggedRequests() const {
    std::ifstream log(dir_.path() / "nginx" / "access.log");
    uint64_t n = 0;
    for (std::string line; std::getline(log, line);) ++n;
    return n;
  }
  // Waits until nginx has logged the requests `count` says were sent (it logs after answering).
  uint64_t RequestsAfter(uint64_t before, uint64_t count) const {
    for (int i = 0; i < 50 && LoggedRequests() < before + count; ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    return LoggedRequests() - before;
  }

  // Scans `names` (relative to the root) over http into `out`, and locally into `out`.local.
  void Scan(const std::vector<std::string>& names, const std::string& out) {
    std::string urls, paths;
    for (const std::string& n : names) {
      urls += " " + ShellQuote(nginx_->base() + "/" + n);
      paths += " " + ShellQuote((root_ / n).string());
    }
    CommandResult remote = RunKerchunk("scan", urls + " -q -o " + ShellQuote(out));
    ASSERT_EQ(remote.exit_code, 0) << remote.err;
    CommandResult local = RunKerchunk("scan", paths + " -q -o " + ShellQuote(out + ".local"));
    ASSERT_EQ(local.exit_code, 0) << local.err;
  }

  // `verify ARGS --format json` parsed.
  json::Value VerifyJson(const std::string& args, int expected_exit) {
    CommandResult r = RunVerify(args + " -q --format json");
    EXPECT_EQ(r.exit_code, expected_exit) << r.out << r.err;
    Result<json::Value> doc = json::Value::Parse(r.out);
    EXPECT_TRUE(doc.ok()) << r.out;
    return doc.ok() ? *std::move(doc) : json::Value();
  }

  TempDir dir_;
  fs::path root_;
  std::vector<std::string> series_;
  std::unique_ptr<Nginx> nginx_;
};

TEST_F(RemoteVerifyTest, RemoteIndexesGetTheVerdictsOfLocalOnesInFewRequests) {
  std::vector<std::vector<std::string>> sets = {series_};
  for (const std::string& name : kSingles) sets.push_back({name});
  for (size_t s = 0; s < sets.size(); ++s) {
    const std::string index = dir_ / ("index" + std::to_string(s) + ".json");
    Scan(sets[s], index);
    for (const char* mode : {"--files", "--deep", "--source"}) {
      SCOPED_TRACE(sets[s][0] + " " + mode);
      const json::Value local = VerifyJson(ShellQuote(index + ".local") + " " + mode, 0);
      const uint64_t before = LoggedRequests();
      const json::Value remote = VerifyJson(ShellQuote(index) + " " + mode, 0);
      // The same checks ran, examined, skipped and failed the same references; the local
      // index's files check also compares each file with scan's record of it (size and
      // modification time), which remote files do not have: one case per file more.
      ASSERT_NE(remote.Find("checks"), nullptr);
      json::Value expected = *local.Find("checks");
      expected.Find("files")->Set(
          "examined", json::Value::Uint(Count(local, "files", "examined") - sets[s].size()));
      EXPECT_EQ(remote.Find("checks")->Dump(), expected.Dump());
      const json::Value* stats = remote.Find("remote");
      ASSERT_NE(stats, nullptr);
      const auto requests = static_cast<uint64_t>(stats->Find("requests")->as_double());
      EXPECT_EQ(RequestsAfter(before, requests), requests) << "the report counts what was sent";
      const uint64_t files = sets[s].size();
      const uint64_t arrays =
          static_cast<uint64_t>(remote.Find("counts")->Find("arrays")->as_double());
      EXPECT_LE(requests, files * (std::string(mode) == "--files" ? 1 : RequestBound(arrays)));
    }
  }
}

// Copies served in place of the files the index was made from.
TEST_F(RemoteVerifyTest, DamagedTruncatedAndMissingServedFilesAreFound) {
  const std::string index = dir_ / "series.json";
  Scan(series_, index);
  const fs::path first = root_ / series_[0], second = root_ / series_[1];
  // Flip bytes in the middle of the file, where the siconc chunks lie: they no longer inflate.
  {
    std::fstream f(first, std::ios::in | std::ios::out | std::ios::binary);
    const auto size = static_cast<std::streamoff>(fs::file_size(first));
    for (std::streamoff at = size / 2; at < size / 2 + 4096; at += 64) {
      f.seekg(at);
      const int c = f.get();
      f.seekp(at);
      f.put(static_cast<char>(~c));
    }
  }
  fs::resize_file(second, fs::file_size(second) - 1000);  // the last chunks lie past the end
  const json::Value files = VerifyJson(ShellQuote(index) + " --files", 1);
  EXPECT_GT(Count(files, "files", "failures"), 0u);
  EXPECT_EQ(Count(files, "decode", "failures"), 0u);
  const json::Value deep = VerifyJson(ShellQuote(index) + " --deep", 1);
  EXPECT_GT(Count(deep, "decode", "failures"), 0u);
  CommandResult text = RunVerify(ShellQuote(index) + " --deep -q");
  EXPECT_THAT(text.out, HasSubstr("lie beyond the end of " + nginx_->base() + "/" + series_[1]));
  EXPECT_THAT(text.out, HasSubstr("do not decode"));

  fs::remove(second);
  CommandResult missing = RunVerify(ShellQuote(index) + " --files -q");
  EXPECT_EQ(missing.exit_code, 1) << missing.out << missing.err;
  EXPECT_THAT(missing.out, HasSubstr(nginx_->base() + "/" + series_[1] + " not found (HTTP 404)"));
}

// tests/io/test_server.py as an S3 endpoint that checks SigV4 signatures: verify reads s3://
// objects with scan's options, and an unsigned request (403) is a files problem, not an error.
TEST(RemoteVerifyS3Test, SignedObjectsVerifyAndA403IsAFilesProblem) {
  if (std::system("/usr/bin/python3 -c 'import botocore' 2>/dev/null") != 0) {
    GTEST_SKIP() << "python3-botocore is not installed";
  }
  TempDir dir;
  const fs::path root = dir.path() / "served";
  fs::create_directories(root / "bucket/series");
  for (const char* name : {"daily_20200101.nc", "daily_20200102.nc"}) {
    fs::copy_file(fs::path(KERCHUNK_SAMPLES_DIR) / name, root / "bucket/series" / name);
  }
  ChildProcess server({"/usr/bin/python3", KERCHUNK_TEST_SERVER_PY, "s3", root.string()},
                      dir / "server.log");
  const std::string port = server.FirstLine();
  if (port.empty()) GTEST_SKIP() << "the test server did not start";
  const std::string endpoint = " --s3-endpoint http://127.0.0.1:" + port;
  const std::string creds =
      "AWS_ACCESS_KEY_ID=AKIDKERCHUNKTEST AWS_SECRET_ACCESS_KEY='kerchunk/test+secret' "
      "AWS_SHARED_CREDENTIALS_FILE=/nonexistent ";
  const std::string kerchunk = ShellQuote(KerchunkBinary());
  const std::string index = dir / "s3.json";
  CommandResult scan = RunCommand(creds + kerchunk + " scan s3://bucket/series/" + endpoint +
                                  " -q -o " + ShellQuote(index));
  ASSERT_EQ(scan.exit_code, 0) << scan.err;
  CommandResult ok = RunCommand(creds + kerchunk + " verify " + ShellQuote(index) + " --source" +
                                endpoint + " -q");
  EXPECT_EQ(ok.exit_code, 0) << ok.out << ok.err;
  EXPECT_THAT(ok.out, HasSubstr("remote: 2 files read over the network"));
  CommandResult unsigned_requests =
      RunCommand("AWS_SHARED_CREDENTIALS_FILE=/nonexistent " + kerchunk + " verify " +
                 ShellQuote(index) + " --deep" + endpoint + " -q");
  EXPECT_EQ(unsigned_requests.exit_code, 1) << unsigned_requests.out << unsigned_requests.err;
  EXPECT_THAT(unsigned_requests.out,
              HasSubstr("s3://bucket/series/daily_20200101.nc access denied (HTTP 403)"));
}

}  // namespace
}  // namespace kerchunk::testing
