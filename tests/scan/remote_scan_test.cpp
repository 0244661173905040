// `kerchunk scan` of files where they live, against servers on 127.0.0.1 (label client):
// Debian's nginx serving the shared corpus (every HDF5/NetCDF-3 file scanned over http:// gives
// the references its local scan gives, in few requests), tests/io/test_server.py as an S3
// endpoint that checks SigV4 signatures and lists in pages, and as a server of faults.
#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <regex>

#include "io/test_servers.h"
#include "kerchunk/json/kerchunk_json.h"
#include "kerchunk/scan/file_scan.h"
#include "kerchunk/scan/source_scan.h"
#include "kerchunk/util/file_io.h"
#include "scan/cli_testing.h"
#include "support/test_env.h"

namespace kerchunk::testing {
namespace {

namespace fs = std::filesystem;
using ::testing::HasSubstr;

std::string Json(const ReferenceSet& refs) {
  std::string out;
  SerializeKerchunkJson(refs, {}, out);
  return out;
}

// The references of a written index without the record of local source files (remote files
// have none): what a reader sees.
std::string RefsOf(const std::string& path) {
  std::ifstream in(path);
  std::string text((std::istreambuf_iterator<char>(in)), {});
  const std::regex sources(R"("kerchunk_sources":\{"files":\[[^\]]*\]\},?\s*)");
  return std::regex_replace(text, sources, "");
}

// Every file of the shared corpus that starts like HDF5 or NetCDF-3, relative to the root.
std::vector<std::string> CorpusFiles(const fs::path& root) {
  std::vector<std::string> out;
  for (const auto& e : fs::recursive_directory_iterator(root)) {
    if (!e.is_regular_file()) continue;
    auto mapped = MappedFile::Open(e.path().string());
    if (mapped.ok() && FindFormatScanner(mapped->bytes())) {
      out.push_back(fs::relative(e.path(), root).string());
    }
  }
  std::sort(out.begin(), out.end());
  return out;
}

class NginxCorpusTest : public ::testing::Test {
 protected:
  void SetUp() override {
    KERCHUNK_SKIP_WITHOUT_SHARED_DATA();
    if (std::string why = NginxUnavailable(); !why.empty()) GTEST_SKIP() << why;
    root_ = *SharedDataDir();
    nginx_ = std::make_unique<Nginx>(root_, dir_.path());
    for (int i = 0; i < 100; ++i) {
      if (ScanSource(nginx_->base() + "/none", "x", {}, {}).status().code() ==
          StatusCode::kNotFound) {
        // nginx logs a request after answering it: the tests count from this one on.
        nginx_->WaitForRequests(1);
        return;
      }
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    GTEST_SKIP() << "nginx did not start";
  }

  TempDir dir_;
  fs::path root_;
  std::unique_ptr<Nginx> nginx_;
};

// The requests per file this test holds the scan to: a file no larger than the head fetched
// first (kRemoteHeadBytes) is one request, whatever its format or whether libhdf5 reads it; and
// the median over the netCDF-4 files of the shared time series is at most 3 (the target of the
// remote scan; docs/remote.md reports the measured figures).
TEST_F(NginxCorpusTest, EveryFileOverHttpGivesItsLocalReferencesInFewRequests) {
  const std::vector<std::string> files = CorpusFiles(root_);
  ASSERT_FALSE(files.empty());
  io::SourceOptions source;
  source.retry_wait_ms = 10;
  std::vector<uint64_t> series_requests;
  uint64_t requests = 0, bytes = 0, size = 0, same = 0;
  double seconds = 0;
  const int before = nginx_->LoggedRequests();  // SetUp's probe
  for (const std::string& name : files) {
    const std::string local = (root_ / name).string();
    const std::string url = nginx_->base() + "/" + name;
    auto expected = ScanSource(local, url, {}, source);
    FileFetchStats stats;
    auto got = ScanSource(url, url, {}, source, &stats);
    ASSERT_EQ(got.ok(), expected.ok())
        << name << ": " << (got.ok() ? expected.status() : got.status()).message();
    if (expected.ok()) {
      ASSERT_EQ(Json(got->refs), Json(expected->refs)) << name;
      EXPECT_EQ(got->warnings.size(), expected->warnings.size()) << name;
      ++same;
    } else {
      // The same error, naming the URL where the local scan names the path.
      std::string message = expected.status().message();
      for (size_t at; (at = message.find(local)) != std::string::npos;) {
        message.replace(at, local.size(), url);
      }
      EXPECT_EQ(got.status().code(), expected.status().code()) << name;
      EXPECT_EQ(got.status().message(), message) << name;
    }
    EXPECT_TRUE(stats.remote);
    if (stats.file_size <= kRemoteHeadBytes) {
      EXPECT_EQ(stats.requests, 1u) << name;
    }
    if (name.starts_with("timeseries/nc4_")) series_requests.push_back(stats.requests);
    requests += stats.requests;
    bytes += stats.bytes_fetched;
    size += stats.file_size;
    seconds += stats.seconds;
  }
  // The server's count is the client's: nothing is fetched that the stats do not show.
  EXPECT_EQ(nginx_->WaitForRequests(before + static_cast<int>(requests)) - before,
            static_cast<int>(requests));
  ASSERT_FALSE(series_requests.empty());
  std::sort(series_requests.begin(), series_requests.end());
  const uint64_t median = series_requests[series_requests.size() / 2];
  EXPECT_LE(median, 3u);
  std::printf(
      "%zu files (%llu translated, the rest refused alike): %llu requests, %llu of %llu bytes "
      "fetched, %.2f s over http; netCDF-4 series files: median %llu, max %llu requests\n",
      files.size(), static_cast<unsigned long long>(same),
      static_cast<unsigned long long>(requests), static_cast<unsigned long long>(bytes),
      static_cast<unsigned long long>(size), seconds, static_cast<unsigned long long>(median),
      static_cast<unsigned long long>(series_requests.back()));
}

// The command on a whole series over http://: exactly the index of the local scan whose paths
// are rewritten to those URLs, one request per file, and the summary's requests are nginx's.
TEST_F(NginxCorpusTest, ASeriesOverHttpIsTheRewrittenLocalIndex) {
  const std::string series = "timeseries/nc4_cmip6_siconc_MPI-ESM1-2-HR_mon_33files";
  if (!fs::exists(root_ / series)) GTEST_SKIP() << series << " is not in the corpus";
  std::string urls;
  int count = 0;
  for (const std::string& f : FilesIn(root_ / series)) {
    urls += " " + ShellQuote(nginx_->base() + "/" + series + "/" + fs::path(f).filename().string());
    ++count;
  }
  const int before = nginx_->LoggedRequests();
  const std::string remote = dir_ / "remote.json", local = dir_ / "local.json";
  CommandResult r =
      RunKerchunk("scan" + urls + " -o " + ShellQuote(remote) + " --format json -j 2");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  CommandResult l =
      RunKerchunk("scan " + ShellQuote((root_ / series).string()) + " -o " + ShellQuote(local) +
                  " -q --rewrite " + ShellQuote(root_.string() + "=" + nginx_->base()));
  ASSERT_EQ(l.exit_code, 0) << l.err;
  EXPECT_EQ(RefsOf(remote), RefsOf(local));
  std::smatch m;
  ASSERT_TRUE(std::regex_search(r.out, m, std::regex(R"("requests":(\d+),"seconds")"))) << r.out;
  const int requests = std::stoi(m[1]);
  EXPECT_EQ(nginx_->WaitForRequests(before + requests) - before, requests);
  // The head of each file, which holds all of these small files: combine's reads of the time
  // values are served from what the scans kept, not fetched again.
  EXPECT_EQ(requests, count);
  EXPECT_THAT(r.out, HasSubstr(R"("path":")" + nginx_->base() + "/" + series));
}

// test_server.py serving the project's samples: faults and an S3 endpoint.
class TestServerScan : public CliTest {
 protected:
  void Start(const std::string& mode) {
    if (mode == "s3" && std::system("/usr/bin/python3 -c 'import botocore' 2>/dev/null") != 0) {
      GTEST_SKIP() << "python3-botocore is not installed";
    }
    fs::create_directories(root_ / "bucket/series");
    fs::create_directories(root_ / "public");
    for (const char* name : {"daily_20200101.nc", "daily_20200102.nc", "daily_20200103.nc"}) {
      fs::copy_file(fs::path(KERCHUNK_SAMPLES_DIR) / name, root_ / name);
      fs::copy_file(fs::path(KERCHUNK_SAMPLES_DIR) / name, root_ / "bucket/series" / name);
    }
    std::ofstream(root_ / "bucket/series/README.txt") << "not a NetCDF file";
    fs::copy_file(fs::path(KERCHUNK_SAMPLES_DIR) / "groups.h5", root_ / "public/groups.h5");
    server_ = std::make_unique<ChildProcess>(
        std::vector<std::string>{"/usr/bin/python3", KERCHUNK_TEST_SERVER_PY, mode, root_.string()},
        dir_ / "server.log");
    const std::string port = server_->FirstLine();
    if (port.empty()) GTEST_SKIP() << "the test server did not start";
    base_ = "http://127.0.0.1:" + port;
  }
  // The error contract, and no output file left.
  void ExpectFailure(const CommandResult& r, const std::string& url, const std::string& what) {
    EXPECT_TRUE(IsOneLineError(r, "scan", url)) << r.err;
    EXPECT_THAT(r.err, HasSubstr(what));
    EXPECT_FALSE(fs::exists(out() / "x.json"));
  }

  fs::path root_ = dir_.path() / "served";
  std::string base_;
  std::unique_ptr<ChildProcess> server_;
};

TEST_F(TestServerScan, FaultsAreOneLineErrorsWithoutOutput) {
  Start("faults");
  const std::string o = " -o " + Out("x.json") + " --io-timeout 1";
  ExpectFailure(RunKerchunk("scan " + base_ + "/missing" + o), base_ + "/missing",
                "not found (HTTP 404)");
  ExpectFailure(RunKerchunk("scan " + base_ + "/forbidden" + o), base_ + "/forbidden",
                "access denied (HTTP 403)");
  ExpectFailure(RunKerchunk("scan " + base_ + "/truncate/daily_20200101.nc" + o),
                base_ + "/truncate/daily_20200101.nc", "(after 4 attempts)");
  ExpectFailure(RunKerchunk("scan " + base_ + "/always-503" + o), base_ + "/always-503",
                "HTTP 503 (after 4 attempts)");
  const auto start = std::chrono::steady_clock::now();
  ExpectFailure(RunKerchunk("scan " + base_ + "/stall" + o, 60), base_ + "/stall", "/stall");
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(30));
  // A local file among them changes nothing: the run fails as a whole.
  ExpectFailure(RunKerchunk("scan " + ShellQuote((root_ / "daily_20200102.nc").string()) + " " +
                            base_ + "/missing" + o),
                base_ + "/missing", "HTTP 404");
}

TEST_F(TestServerScan, RetriedAndSkippedFiles) {
  Start("faults");
  // 503 twice, then the file: retried, and the index is the file's.
  const std::string flaky = base_ + "/flaky/daily_20200101.nc";
  const std::string plain = base_ + "/files/daily_20200101.nc";
  CommandResult r = RunKerchunk("scan " + flaky + " -o " + Out("flaky.json") + " --format json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out, HasSubstr(R"("retries":2)"));
  ASSERT_EQ(RunKerchunk("scan " + plain + " -o " + Out("plain.json") + " -q").exit_code, 0);
  std::string a = RefsOf(out() / "flaky.json"), b = RefsOf(out() / "plain.json");
  b = std::regex_replace(b, std::regex("/files/"), "/flaky/");
  EXPECT_EQ(a, b);
  // --on-error skip: the missing file is left out and listed, the others are combined.
  r = RunKerchunk("scan " + base_ + "/missing " + plain + " " + base_ +
                  "/files/daily_20200102.nc -o " + Out("skip.json") +
                  " --on-error skip --format json");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(r.out,
              HasSubstr("\"skipped\":[{\"error\":\"" + base_ +
                        "/missing: not found (HTTP 404)\",\"path\":\"" + base_ + "/missing\"}]"));
  EXPECT_THAT(r.out, HasSubstr(R"("read":2)"));
}

TEST_F(TestServerScan, S3PrefixesPatternsAndSignatures) {
  Start("s3");
  const std::string endpoint = " --s3-endpoint " + base_;
  const std::string creds =
      "AWS_ACCESS_KEY_ID=AKIDKERCHUNKTEST AWS_SECRET_ACCESS_KEY='kerchunk/test+secret' "
      "AWS_SHARED_CREDENTIALS_FILE=/nonexistent ";
  auto scan = [&](const std::string& env, const std::string& args) {
    return RunCommand(env + ShellQuote(KerchunkBinary()) + " scan " + args);
  };
  // The local series with its folder published as the bucket's prefix: the reference index.
  std::string local_args;
  for (const char* name : {"daily_20200101.nc", "daily_20200102.nc", "daily_20200103.nc"}) {
    local_args += " " + ShellQuote((root_ / name).string());
  }
  ASSERT_EQ(RunKerchunk("scan" + local_args + " -q -o " + Out("local.json") + " --rewrite " +
                        ShellQuote(root_.string() + "=s3://bucket/series"))
                .exit_code,
            0);
  const std::string expected = RefsOf(out() / "local.json");
  // A prefix (listed in pages of two keys; README.txt left out by its name) and a pattern.
  CommandResult r = scan(creds, "s3://bucket/series/" + endpoint + " -q -o " + Out("prefix.json"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(RefsOf(out() / "prefix.json"), expected);
  r = scan(creds, "'s3://bucket/series/daily_*.nc'" + endpoint + " -q -o " + Out("glob.json"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(RefsOf(out() / "glob.json"), expected);
  // Unsigned, or signed with a wrong secret: refused, naming the object.
  ExpectFailure(scan("AWS_SHARED_CREDENTIALS_FILE=/nonexistent ",
                     "s3://bucket/series/daily_20200101.nc" + endpoint + " -o " + Out("x.json")),
                "s3://bucket/series/daily_20200101.nc", "access denied (HTTP 403)");
  ExpectFailure(scan("AWS_ACCESS_KEY_ID=AKIDKERCHUNKTEST AWS_SECRET_ACCESS_KEY=wrong ",
                     "s3://bucket/series/daily_20200101.nc" + endpoint + " -o " + Out("x.json")),
                "s3://bucket/series/daily_20200101.nc", "access denied");
  // A public bucket needs no credentials; s3:// stays s3:// in the references.
  r = scan("", "s3://public/groups.h5 --s3-anonymous" + endpoint + " -q -o " + Out("pub.json"));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_THAT(RefsOf(out() / "pub.json"), HasSubstr(R"("s3://public/groups.h5")"));
  ExpectFailure(scan(creds, "s3://bucket/nothing/" + endpoint + " -o " + Out("x.json")),
                "s3://bucket/nothing/", "no object");
}

}  // namespace
}  // namespace kerchunk::testing
