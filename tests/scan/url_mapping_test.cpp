// Path -> URL for scan (--url-prefix, --rewrite) and URL -> path for combine.
#include "kerchunk/scan/url_mapping.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include <filesystem>

namespace kerchunk {
namespace {

using ::testing::HasSubstr;

std::string Cwd() { return std::filesystem::current_path().string(); }

TEST(ParseRewriteTest, SplitsAtFirstEquals) {
  auto rule = ParseRewrite("/mirror=s3://bucket/a=b");
  ASSERT_TRUE(rule.ok());
  EXPECT_EQ(rule->from, "/mirror");
  EXPECT_EQ(rule->to, "s3://bucket/a=b");
  auto to_empty = ParseRewrite("/work/shared=");
  ASSERT_TRUE(to_empty.ok());
  EXPECT_EQ(to_empty->to, "");
}

TEST(ParseRewriteTest, RejectsMissingOrEmptyFrom) {
  EXPECT_EQ(ParseRewrite("/mirror").status().code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(ParseRewrite("=s3://x").status().message(), HasSubstr("FROM=TO"));
}

TEST(ApplyLongestPrefixTest, MatchesAtPathBoundariesAndPrefersLongest) {
  std::vector<PrefixRewrite> rules = {
      {"/data", "https://host/d"}, {"/data/cmip6", "s3://cmip6/"}, {"/", "file:///"}};
  EXPECT_EQ(ApplyLongestPrefix(rules, "/data/x.nc"), "https://host/d/x.nc");
  EXPECT_EQ(ApplyLongestPrefix(rules, "/data/cmip6/a/b.nc"), "s3://cmip6/a/b.nc");
  EXPECT_EQ(ApplyLongestPrefix(rules, "/data"), "https://host/d");
  // "/data" must not match "/database": the root rule applies instead.
  EXPECT_EQ(ApplyLongestPrefix(rules, "/database/x.nc"), "file:///database/x.nc");
  EXPECT_EQ(ApplyLongestPrefix({{"/data", ""}}, "/data/sub/x.nc"), "sub/x.nc");
  EXPECT_EQ(ApplyLongestPrefix({{"/data", "x"}}, "/other/x.nc"), std::nullopt);
}

TEST(PathToUrlTest, DefaultIsTheAbsolutePath) {
  auto mapper = PathToUrl::Make("", {});
  ASSERT_TRUE(mapper.ok());
  EXPECT_EQ(*mapper->UrlFor("/abs/x.nc"), "/abs/x.nc");
}

TEST(PathToUrlTest, UrlPrefixIsJoinedToThePathRelativeToTheCurrentDirectory) {
  for (std::string prefix : {"https://host/data", "https://host/data/"}) {
    auto mapper = PathToUrl::Make(prefix, {});
    ASSERT_TRUE(mapper.ok());
    EXPECT_EQ(*mapper->UrlFor(Cwd() + "/sub/x.nc"), "https://host/data/sub/x.nc") << prefix;
  }
}

TEST(PathToUrlTest, RewriteLocalFolderToRemoteAndRelativeLocalFolders) {
  auto mapper = PathToUrl::Make("", {{"/mirror/era5/", "s3://era5"}, {"rel", "https://r"}});
  ASSERT_TRUE(mapper.ok());
  EXPECT_EQ(*mapper->UrlFor("/mirror/era5/2020/01.nc"), "s3://era5/2020/01.nc");
  EXPECT_EQ(*mapper->UrlFor(Cwd() + "/rel/a.nc"), "https://r/a.nc");
}

TEST(PathToUrlTest, PathOutsideEveryRuleIsAnErrorNamingIt) {
  auto mapper = PathToUrl::Make("", {{"/mirror", "s3://b"}});
  ASSERT_TRUE(mapper.ok());
  auto url = mapper->UrlFor("/elsewhere/x.nc");
  ASSERT_FALSE(url.ok());
  EXPECT_EQ(url.status().code(), StatusCode::kInvalidArgument);
  EXPECT_THAT(url.status().message(), HasSubstr("/elsewhere/x.nc"));
}

TEST(UrlToLocalPathTest, RewritesRemoteUrlsAndAcceptsLocalOnes) {
  auto mapper = UrlToLocalPath::Make({{"s3://bucket/", "/mirror"}});
  ASSERT_TRUE(mapper.ok());
  EXPECT_EQ(*mapper->PathFor("s3://bucket/a/b.nc"), "/mirror/a/b.nc");
  EXPECT_EQ(*mapper->PathFor("file:///abs/x.nc"), "/abs/x.nc");
  EXPECT_EQ(*mapper->PathFor("/abs/x.nc"), "/abs/x.nc");
  EXPECT_EQ(*mapper->PathFor("data/x.nc"), "data/x.nc");
  auto remote = mapper->PathFor("https://host/x.nc");
  ASSERT_FALSE(remote.ok());
  EXPECT_THAT(remote.status().message(), HasSubstr("--rewrite https://host/=LOCAL_FOLDER"));
}

}  // namespace
}  // namespace kerchunk
