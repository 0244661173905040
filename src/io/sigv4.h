// AWS Signature Version 4 for S3 requests (header-based signing of a request without a body):
// https://docs.aws.amazon.com/AmazonS3/latest/API/sig-v4-header-based-auth.html
// The canonical request, string to sign and signing key are built exactly as that page says;
// the tests check the page's GET Object example and botocore's signer.
#pragma once

#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "kerchunk/io/byte_source.h"

namespace kerchunk::io::internal {

/// A request to sign: method, the URL's host (with ":port" when not the scheme's default),
/// path as sent (already percent-encoded), query string as sent (parameters in any order), and
/// the headers that will be signed besides host and the x-amz-* ones this adds.
struct SigningRequest {
  std::string method = "GET";
  std::string host;
  std::string path = "/";
  std::string query;
  std::vector<std::pair<std::string, std::string>> headers;  ///< e.g. {"range", "bytes=0-9"}
};

/// The headers to send for `request` signed at `amz_date` ("20130524T000000Z", UTC):
/// x-amz-date, x-amz-content-sha256 (of the empty body), x-amz-security-token when the
/// credentials have a session token, and Authorization.
std::vector<std::pair<std::string, std::string>> SignV4(const SigningRequest& request,
                                                        const S3Credentials& credentials,
                                                        std::string_view region,
                                                        std::string_view service,
                                                        std::string_view amz_date);

/// The current UTC time as x-amz-date wants it.
std::string AmzDateNow();

/// Lowercase hex SHA-256 of `bytes`.
std::string Sha256Hex(std::string_view bytes);

/// Percent-encoding of AWS's canonical URI and query rules: unreserved characters
/// (A-Z a-z 0-9 - _ . ~) stay, "/" stays when `keep_slash`, everything else is %XX (uppercase).
std::string UriEncode(std::string_view text, bool keep_slash);

}  // namespace kerchunk::io::internal
