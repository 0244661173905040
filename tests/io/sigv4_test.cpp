#include "io/sigv4.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

namespace kerchunk::io::internal {
namespace {

std::string Header(const std::vector<std::pair<std::string, std::string>>& headers,
                   std::string_view name) {
  for (const auto& [n, v] : headers) {
    if (n == name) return v;
  }
  return "";
}

// The worked example of AWS's "Signature Calculations for the Authorization Header" page
// (GET Object, examplebucket/test.txt, bytes 0-9, 2013-05-24).
TEST(SigV4Test, AwsGetObjectExample) {
  SigningRequest request{
      "GET", "examplebucket.s3.amazonaws.com", "/test.txt", "", {{"Range", "bytes=0-9"}}};
  const S3Credentials credentials{"AKIAIOSFODNN7EXAMPLE",
                                  "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", ""};
  const auto headers = SignV4(request, credentials, "us-east-1", "s3", "20130524T000000Z");
  EXPECT_EQ(Header(headers, "authorization"),
            "AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request,"
            "SignedHeaders=host;range;x-amz-content-sha256;x-amz-date,"
            "Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41");
  EXPECT_EQ(Header(headers, "x-amz-date"), "20130524T000000Z");
  EXPECT_EQ(Header(headers, "x-amz-content-sha256"), Sha256Hex(""));
  EXPECT_EQ(Header(headers, "x-amz-security-token"), "");
}

TEST(SigV4Test, SessionTokenIsSentAndSigned) {
  SigningRequest request{"GET", "h", "/k", "", {}};
  const auto headers = SignV4(request, {"A", "S", "TOKEN"}, "eu-west-2", "s3", "20260101T000000Z");
  EXPECT_EQ(Header(headers, "x-amz-security-token"), "TOKEN");
  EXPECT_THAT(Header(headers, "authorization"),
              ::testing::HasSubstr(
                  "SignedHeaders=host;x-amz-content-sha256;x-amz-date;x-amz-security-token,"));
  EXPECT_THAT(Header(headers, "authorization"),
              ::testing::HasSubstr("Credential=A/20260101/eu-west-2/s3/aws4_request"));
}

TEST(SigV4Test, QueryOrderDoesNotChangeTheSignature) {
  SigningRequest a{"GET", "h", "/bucket", "list-type=2&prefix=a%2Fb", {}};
  SigningRequest b{"GET", "h", "/bucket", "prefix=a%2Fb&list-type=2", {}};
  const S3Credentials c{"A", "S", ""};
  EXPECT_EQ(Header(SignV4(a, c, "r", "s3", "20260101T000000Z"), "authorization"),
            Header(SignV4(b, c, "r", "s3", "20260101T000000Z"), "authorization"));
}

TEST(SigV4Test, UriEncoding) {
  EXPECT_EQ(UriEncode("a b/c~d_e.f-g", true), "a%20b/c~d_e.f-g");
  EXPECT_EQ(UriEncode("a/b+c", false), "a%2Fb%2Bc");
  EXPECT_EQ(UriEncode("\xc3\xa9", true), "%C3%A9");
  EXPECT_EQ(Sha256Hex("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
}

}  // namespace
}  // namespace kerchunk::io::internal
