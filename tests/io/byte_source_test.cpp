#include "kerchunk/io/byte_source.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <cstdlib>
#include <fstream>
#include <random>

#include "io/remote_source.h"
#include "support/test_env.h"

namespace kerchunk::io {
namespace {

using ::testing::HasSubstr;

class LocalSourceTest : public ::testing::Test {
 protected:
  void SetUp() override {
    path_ = dir_ / "data.bin";
    std::ofstream(path_, std::ios::binary) << "0123456789abcdef";
  }
  testing::TempDir dir_;
  std::string path_;
};

TEST_F(LocalSourceTest, ReadsPathsAndFileUrls) {
  for (const std::string& url : {path_, "file://" + path_}) {
    auto source = OpenByteSource(url);
    ASSERT_TRUE(source.ok()) << source.status().message();
    EXPECT_EQ(*(*source)->Size(), 16u);
    EXPECT_EQ(*(*source)->Read(10, 6), "abcdef");
    EXPECT_EQ(*(*source)->Read(3, 0), "");
    auto beyond = (*source)->Read(10, 7);
    EXPECT_EQ(beyond.status().code(), StatusCode::kDataLoss);
    EXPECT_THAT(beyond.status().message(), HasSubstr(path_));
  }
}

TEST_F(LocalSourceTest, ErrorsNameTheFile) {
  auto missing = OpenByteSource(dir_ / "nope.nc");
  ASSERT_TRUE(missing.ok());  // opening touches nothing
  auto read = (*missing)->Read(0, 1);
  EXPECT_EQ(read.status().code(), StatusCode::kNotFound);
  EXPECT_THAT(read.status().message(), HasSubstr("nope.nc"));
  EXPECT_EQ(OpenByteSource("ftp://host/x").status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(OpenByteSource("s3://").status().code(), StatusCode::kInvalidArgument);
  EXPECT_EQ(OpenByteSource("s3://bucket").status().code(), StatusCode::kInvalidArgument);
  EXPECT_TRUE(IsRemoteUrl("s3://b/k") && IsRemoteUrl("https://h/x") && !IsRemoteUrl("/x"));
}

// Property: coalesced reads give what one read per range gives, whatever the ranges.
TEST_F(LocalSourceTest, ReadRangesSameAsOneByOne) {
  std::mt19937_64 rng(7);
  std::string bytes(1 << 16, '\0');
  for (char& c : bytes) c = static_cast<char>(rng());
  const std::string path = dir_ / "random.bin";
  std::ofstream(path, std::ios::binary) << bytes;
  auto source = OpenByteSource(path);
  ASSERT_TRUE(source.ok());
  for (int round = 0; round < 50; ++round) {
    std::vector<ByteRange> ranges(1 + rng() % 40);
    for (ByteRange& r : ranges) {
      r.length = rng() % 200;
      r.offset = rng() % (bytes.size() - r.length + 1);
    }
    const uint64_t gap = rng() % 3 == 0 ? 0 : rng() % 5000;
    auto got = ReadRanges(**source, ranges, gap, 1 + rng() % 20000);
    ASSERT_TRUE(got.ok()) << got.status().message();
    for (size_t i = 0; i < ranges.size(); ++i) {
      ASSERT_EQ((*got)[i], bytes.substr(ranges[i].offset, ranges[i].length)) << round << " " << i;
    }
  }
}

TEST(S3UrlTest, AddressingStyles) {
  auto location = internal::ParseS3Url("s3://my-bucket/a b/c.nc");
  ASSERT_TRUE(location.ok());
  EXPECT_EQ(location->bucket, "my-bucket");
  EXPECT_EQ(location->key, "a b/c.nc");
  SourceOptions aws;
  aws.s3_region = "eu-west-2";
  std::string host, path;
  EXPECT_EQ(internal::S3HttpUrl(*location, aws, &host, &path),
            "https://my-bucket.s3.eu-west-2.amazonaws.com/a%20b/c.nc");
  EXPECT_EQ(host, "my-bucket.s3.eu-west-2.amazonaws.com");
  EXPECT_EQ(path, "/a%20b/c.nc");
  SourceOptions custom;
  custom.s3_endpoint = "http://127.0.0.1:9000/";
  EXPECT_EQ(internal::S3HttpUrl(*location, custom, &host, &path),
            "http://127.0.0.1:9000/my-bucket/a%20b/c.nc");
  EXPECT_EQ(host, "127.0.0.1:9000");
  aws.s3_path_style = true;
  EXPECT_EQ(internal::S3HttpUrl(*location, aws),
            "https://s3.eu-west-2.amazonaws.com/my-bucket/a%20b/c.nc");
}

TEST(S3CredentialsTest, EnvironmentThenProfileFile) {
  testing::TempDir dir;
  const std::string file = dir / "credentials";
  std::ofstream(file) << "[default]\naws_access_key_id = DEF\naws_secret_access_key = s1\n"
                         "[other]\naws_access_key_id=OTH\naws_secret_access_key=s2\n"
                         "aws_session_token=t2\n[broken]\naws_access_key_id=X\n";
  ::unsetenv("AWS_ACCESS_KEY_ID");
  ::unsetenv("AWS_SECRET_ACCESS_KEY");
  ::unsetenv("AWS_SESSION_TOKEN");
  ::setenv("AWS_SHARED_CREDENTIALS_FILE", file.c_str(), 1);
  ::unsetenv("AWS_PROFILE");
  EXPECT_EQ(S3CredentialsFromEnvironment()->access_key_id, "DEF");
  ::setenv("AWS_PROFILE", "other", 1);
  auto other = S3CredentialsFromEnvironment();
  EXPECT_EQ(other->access_key_id, "OTH");
  EXPECT_EQ(other->session_token, "t2");
  ::setenv("AWS_PROFILE", "broken", 1);
  EXPECT_EQ(S3CredentialsFromEnvironment().status().code(), StatusCode::kInvalidArgument);
  ::setenv("AWS_PROFILE", "absent", 1);
  EXPECT_TRUE(S3CredentialsFromEnvironment()->empty());
  ::setenv("AWS_ACCESS_KEY_ID", "ENV", 1);
  ::setenv("AWS_SECRET_ACCESS_KEY", "secret", 1);
  EXPECT_EQ(S3CredentialsFromEnvironment()->access_key_id, "ENV");
  ::unsetenv("AWS_ACCESS_KEY_ID");
  ::unsetenv("AWS_SECRET_ACCESS_KEY");
  ::unsetenv("AWS_SHARED_CREDENTIALS_FILE");
  ::unsetenv("AWS_PROFILE");
}

}  // namespace
}  // namespace kerchunk::io
