// Remote sources against real servers on 127.0.0.1: nginx (Debian) serving files, and
// tests/io/test_server.py for faults and for an S3 endpoint that checks signatures with botocore.
// Each server skips its tests when it cannot start here.
#include <fcntl.h>
#include <gmock/gmock.h>
#include <gtest/gtest.h>
#include <netcdf.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <random>
#include <sstream>
#include <thread>

#include "io/test_servers.h"
#include "kerchunk/io/byte_source.h"
#include "kerchunk/io/file_image.h"
#include "kerchunk/json/kerchunk_json.h"
#include "kerchunk/netcdf3/translator.h"
#include "support/test_env.h"

namespace kerchunk::io {
namespace {

using ::testing::HasSubstr;

using testing::ChildProcess;

std::string RandomBytes(size_t n, uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::string s(n, '\0');
  for (char& c : s) c = static_cast<char>(rng());
  return s;
}

std::string TestServerScript() { return std::string(KERCHUNK_TEST_SERVER_PY); }

class FaultServerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    bytes_ = RandomBytes(300000, 1);
    std::ofstream(dir_ / "data.bin", std::ios::binary) << bytes_;
    std::ofstream(dir_ / "small.bin", std::ios::binary) << bytes_.substr(0, 1000);
    server_ = std::make_unique<ChildProcess>(
        std::vector<std::string>{"/usr/bin/python3", TestServerScript(), "faults", dir_.path()},
        dir_ / "server.log");
    const std::string port = server_->FirstLine();
    if (port.empty()) GTEST_SKIP() << "the test server did not start";
    base_ = "http://127.0.0.1:" + port;
    options_.retry_wait_ms = 10;
  }
  Result<std::string> Read(const std::string& path, uint64_t offset, uint64_t length,
                           SourceStats* stats = nullptr) {
    KERCHUNK_ASSIGN_OR_RETURN(auto source, OpenByteSource(base_ + path, options_));
    auto r = source->Read(offset, length);
    if (stats) *stats = source->stats();
    return r;
  }

  testing::TempDir dir_;
  std::string bytes_, base_;
  std::unique_ptr<ChildProcess> server_;
  SourceOptions options_;
};

TEST_F(FaultServerTest, RangesAndSize) {
  auto source = OpenByteSource(base_ + "/files/data.bin", options_);
  ASSERT_TRUE(source.ok());
  EXPECT_EQ(*(*source)->Read(1000, 5000), bytes_.substr(1000, 5000));
  EXPECT_EQ(*(*source)->Size(), bytes_.size());  // known from Content-Range: no HEAD
  EXPECT_EQ((*source)->stats().requests, 1u);
  auto beyond = (*source)->Read(bytes_.size() - 10, 11);
  EXPECT_EQ(beyond.status().code(), StatusCode::kDataLoss);
  // A server that ignores Range: the whole body, cut to what was asked; refused when the file
  // is far larger than what was asked (the whole file would be downloaded for a few bytes).
  auto whole = Read("/norange/small.bin", 7, 9);
  ASSERT_TRUE(whole.ok()) << whole.status().message();
  EXPECT_EQ(*whole, bytes_.substr(7, 9));
  auto large = Read("/norange/data.bin", 7, 9);
  EXPECT_EQ(large.status().code(), StatusCode::kIoError);
  EXPECT_THAT(large.status().message(), HasSubstr("more than"));
}

TEST_F(FaultServerTest, APrefixSizesTheFileInTheSameRequest) {
  auto source = OpenByteSource(base_ + "/files/data.bin", options_);
  ASSERT_TRUE(source.ok());
  EXPECT_EQ(*(*source)->ReadPrefix(1000), bytes_.substr(0, 1000));
  EXPECT_EQ(*(*source)->Size(), bytes_.size());
  EXPECT_EQ((*source)->stats().requests, 1u);
  // Longer than the file: the whole file, still one request.
  auto small = OpenByteSource(base_ + "/files/small.bin", options_);
  EXPECT_EQ(*(*small)->ReadPrefix(1 << 20), bytes_.substr(0, 1000));
  EXPECT_EQ(*(*small)->Size(), 1000u);
  EXPECT_EQ((*small)->stats().requests, 1u);
  auto missing = (*OpenByteSource(base_ + "/missing", options_))->ReadPrefix(100);
  EXPECT_EQ(missing.status().code(), StatusCode::kNotFound);
}

TEST_F(FaultServerTest, ClientErrorsAreOneLineAndNotRetried) {
  SourceStats stats;
  auto missing = Read("/missing", 0, 10, &stats);
  EXPECT_EQ(missing.status().code(), StatusCode::kNotFound);
  EXPECT_EQ(missing.status().message(), base_ + "/missing: not found (HTTP 404)");
  EXPECT_EQ(stats.requests, 1u);
  auto forbidden = Read("/forbidden", 0, 10, &stats);
  EXPECT_EQ(forbidden.status().code(), StatusCode::kIoError);
  EXPECT_THAT(forbidden.status().message(), HasSubstr("/forbidden: access denied (HTTP 403)"));
  EXPECT_EQ(stats.requests, 1u);
}

TEST_F(FaultServerTest, TransientFailuresAreRetriedThenReported) {
  SourceStats stats;
  EXPECT_EQ(*Read("/flaky/data.bin", 10, 20, &stats), bytes_.substr(10, 20));
  EXPECT_EQ(stats.retries, 2u);
  auto busy = Read("/always-503", 0, 10, &stats);
  EXPECT_EQ(busy.status().code(), StatusCode::kIoError);
  EXPECT_THAT(busy.status().message(), HasSubstr("HTTP 503 (after 4 attempts)"));
  EXPECT_EQ(stats.requests, 4u);
  auto cut = Read("/truncate/data.bin", 0, bytes_.size(), &stats);
  EXPECT_EQ(cut.status().code(), StatusCode::kIoError) << cut.status().message();
  EXPECT_THAT(cut.status().message(), HasSubstr("/truncate/data.bin"));
  EXPECT_EQ(stats.requests, 4u);
}

TEST_F(FaultServerTest, AStalledServerTimesOut) {
  options_.stall_timeout_s = 1;
  options_.attempts = 1;
  const auto start = std::chrono::steady_clock::now();
  auto stalled = Read("/stall", 0, 100);
  EXPECT_EQ(stalled.status().code(), StatusCode::kIoError);
  EXPECT_THAT(stalled.status().message(), HasSubstr("/stall"));
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(20));
}

TEST_F(FaultServerTest, NoServerIsAnErrorNamingTheUrl) {
  options_.attempts = 2;
  auto source = OpenByteSource("http://127.0.0.1:1/x.nc", options_);
  auto r = (*source)->Read(0, 1);
  EXPECT_EQ(r.status().code(), StatusCode::kIoError);
  EXPECT_THAT(r.status().message(), HasSubstr("http://127.0.0.1:1/x.nc"));
}

class S3ServerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (std::system("/usr/bin/python3 -c 'import botocore' 2>/dev/null") != 0) {
      GTEST_SKIP() << "python3-botocore is not installed";
    }
    std::filesystem::create_directories(dir_ / "bucket/series");
    std::filesystem::create_directories(dir_ / "public");
    bytes_ = RandomBytes(100000, 2);
    for (const char* name : {"series/a.nc", "series/b.nc", "series/c d.nc", "other.nc"}) {
      std::ofstream(dir_ / (std::string("bucket/") + name), std::ios::binary) << bytes_;
    }
    std::ofstream(dir_ / "public/open.nc", std::ios::binary) << bytes_;
    server_ = std::make_unique<ChildProcess>(
        std::vector<std::string>{"/usr/bin/python3", TestServerScript(), "s3", dir_.path()},
        dir_ / "server.log");
    const std::string port = server_->FirstLine();
    if (port.empty()) GTEST_SKIP() << "the test S3 server did not start";
    options_.s3_endpoint = "http://127.0.0.1:" + port;
    options_.s3_credentials = {"AKIDKERCHUNKTEST", "kerchunk/test+secret", ""};
    options_.retry_wait_ms = 10;
  }

  testing::TempDir dir_;
  std::string bytes_;
  std::unique_ptr<ChildProcess> server_;
  SourceOptions options_;
};

TEST_F(S3ServerTest, SignedRangeReadsAndHead) {
  for (const char* url : {"s3://bucket/series/a.nc", "s3://bucket/series/c d.nc"}) {
    auto source = OpenByteSource(url, options_);
    ASSERT_TRUE(source.ok());
    EXPECT_EQ(*(*source)->Size(), bytes_.size()) << url;  // a signed HEAD
    auto read = (*source)->Read(500, 1000);
    ASSERT_TRUE(read.ok()) << read.status().message();
    EXPECT_EQ(*read, bytes_.substr(500, 1000));
  }
  options_.s3_credentials.session_token = "temporary";
  EXPECT_TRUE((*OpenByteSource("s3://bucket/other.nc", options_))->Read(0, 10).ok());
}

TEST_F(S3ServerTest, WrongSecretAnonymousAndMissingObjects) {
  S3Credentials wrong = options_.s3_credentials;
  wrong.secret_access_key = "not the secret";
  SourceOptions bad = options_;
  bad.s3_credentials = wrong;
  auto denied = (*OpenByteSource("s3://bucket/other.nc", bad))->Read(0, 10);
  EXPECT_EQ(denied.status().code(), StatusCode::kIoError);
  EXPECT_THAT(denied.status().message(), HasSubstr("s3://bucket/other.nc: access denied"));
  SourceOptions anonymous = options_;
  anonymous.s3_credentials = {};
  EXPECT_EQ(*(*OpenByteSource("s3://public/open.nc", anonymous))->Read(3, 4), bytes_.substr(3, 4));
  auto missing = (*OpenByteSource("s3://bucket/nope.nc", options_))->Read(0, 1);
  EXPECT_EQ(missing.status().code(), StatusCode::kNotFound);
  EXPECT_THAT(missing.status().message(), HasSubstr("s3://bucket/nope.nc"));
}

TEST_F(S3ServerTest, ListingFollowsEveryPage) {
  auto all = ListS3Objects("s3://bucket", options_);  // pages of 2 keys
  ASSERT_TRUE(all.ok()) << all.status().message();
  std::vector<std::string> urls;
  for (const ObjectInfo& o : *all) {
    urls.push_back(o.url);
    EXPECT_EQ(o.size, bytes_.size());
  }
  EXPECT_THAT(urls, ::testing::ElementsAre("s3://bucket/other.nc", "s3://bucket/series/a.nc",
                                           "s3://bucket/series/b.nc", "s3://bucket/series/c d.nc"));
  auto series = ListS3Objects("s3://bucket/series/", options_);
  ASSERT_TRUE(series.ok());
  EXPECT_EQ(series->size(), 3u);
  EXPECT_EQ(ListS3Objects("s3://nobucket/", options_).status().code(), StatusCode::kNotFound);
}

// Debian's nginx serving the project's sample files: the bytes of every range equal the
// file's, and neighbouring ranges cost one request (counted in nginx's access log).
class NginxTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (std::string why = testing::NginxUnavailable(); !why.empty()) GTEST_SKIP() << why;
    root_ = std::string(KERCHUNK_SAMPLES_DIR);
    // nginx serves a folder of its own: the samples, and files a test writes there.
    std::filesystem::create_directories(served_.path());
    for (const auto& e : std::filesystem::directory_iterator(root_)) {
      std::filesystem::copy_file(e.path(), served_ / e.path().filename().string());
    }
    nginx_ = std::make_unique<testing::Nginx>(served_.path(), dir_.path());
    base_ = nginx_->base();
    for (int i = 0; i < 100; ++i) {
      auto probe = OpenByteSource(base_ + "/groups.h5");
      if (probe.ok() && (*probe)->Size().ok()) return;
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
    }
    GTEST_SKIP() << "nginx did not start";
  }
  int LoggedRequests() { return nginx_->LoggedRequests(); }

  testing::TempDir dir_, served_;
  std::string root_, base_;
  std::unique_ptr<testing::Nginx> nginx_;
};

TEST_F(NginxTest, RangesEqualTheFileAndNeighboursShareARequest) {
  for (const auto& entry : std::filesystem::directory_iterator(root_)) {
    if (!entry.is_regular_file()) continue;
    const std::string name = entry.path().filename().string();
    std::ifstream in(entry.path(), std::ios::binary);
    const std::string bytes((std::istreambuf_iterator<char>(in)), {});
    if (bytes.size() < 64) continue;
    auto source = OpenByteSource(base_ + "/" + name);
    ASSERT_TRUE(source.ok());
    const int before = LoggedRequests();
    std::vector<ByteRange> ranges;
    for (uint64_t at = 0; at + 16 <= bytes.size(); at += bytes.size() / 7 + 1) {
      ranges.push_back({at, 16});
    }
    auto read = ReadRanges(**source, ranges, bytes.size(), bytes.size());
    ASSERT_TRUE(read.ok()) << name << ": " << read.status().message();
    for (size_t i = 0; i < ranges.size(); ++i) {
      EXPECT_EQ((*read)[i], bytes.substr(ranges[i].offset, 16)) << name << " range " << i;
    }
    EXPECT_EQ(*(*source)->Size(), bytes.size()) << name;
    EXPECT_EQ((*source)->stats().requests, 1u) << name;
    // nginx writes its log line after the response: give it a moment.
    for (int i = 0; i < 50 && LoggedRequests() == before; ++i) {
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    EXPECT_EQ(LoggedRequests() - before, 1) << name;
  }
}

// A format reader runs unchanged on the image of a remote file: the NetCDF-3 translator over
// HTTP writes exactly what it writes from the local file, and reads only the header's pages.
TEST_F(NginxTest, Netcdf3TranslatorReadsARemoteImage) {
  // 2 MB of records behind a small header, written by netCDF-C into the served folder.
  const std::string local = served_ / "records.nc";
  int nc = 0, time = 0, x = 0, var = 0, coord = 0;
  ASSERT_EQ(nc_create(local.c_str(), NC_CLOBBER, &nc), NC_NOERR);
  ASSERT_EQ(nc_def_dim(nc, "time", NC_UNLIMITED, &time), NC_NOERR);
  ASSERT_EQ(nc_def_dim(nc, "x", 100000, &x), NC_NOERR);
  const int dims[2] = {time, x};
  ASSERT_EQ(nc_def_var(nc, "v", NC_FLOAT, 2, dims, &var), NC_NOERR);
  ASSERT_EQ(nc_def_var(nc, "time", NC_DOUBLE, 1, &time, &coord), NC_NOERR);
  ASSERT_EQ(nc_put_att_text(nc, coord, "units", 20, "days since 2000-01-01"), NC_NOERR);
  ASSERT_EQ(nc_enddef(nc), NC_NOERR);
  std::vector<float> values(100000, 1.5f);
  for (size_t t = 0; t < 5; ++t) {
    const size_t start[2] = {t, 0}, count[2] = {1, 100000};
    ASSERT_EQ(nc_put_vara_float(nc, var, start, count, values.data()), NC_NOERR);
    const double day = static_cast<double>(t);
    ASSERT_EQ(nc_put_var1_double(nc, coord, &t, &day), NC_NOERR);
  }
  ASSERT_EQ(nc_close(nc), NC_NOERR);
  const std::string url = base_ + "/records.nc";
  auto local_image = FileImage::Open(*OpenByteSource(local), {.whole_file = true});
  ASSERT_TRUE(local_image.ok());
  auto source = OpenByteSource(url);
  ASSERT_TRUE(source.ok());
  auto remote_image =
      FileImage::Open(std::move(*source), {.head_bytes = 4096, .block_bytes = 4096});
  ASSERT_TRUE(remote_image.ok()) << remote_image.status().message();
  auto expected = netcdf3::TranslateNetcdf3((*local_image)->bytes(), local, url, {});
  auto got = netcdf3::TranslateNetcdf3((*remote_image)->bytes(), url, url, {});
  ASSERT_TRUE(expected.ok()) << expected.status().message();
  ASSERT_TRUE(got.ok()) << got.status().message();
  ASSERT_TRUE((*remote_image)->status().ok()) << (*remote_image)->status().message();
  std::string a, b;
  SerializeKerchunkJson(expected->refs, {}, a);
  SerializeKerchunkJson(got->refs, {}, b);
  EXPECT_EQ(a, b);
  if ((*remote_image)->lazy()) {
    EXPECT_LT((*remote_image)->stats().bytes_fetched, (*remote_image)->size());
  }
}

}  // namespace
}  // namespace kerchunk::io
