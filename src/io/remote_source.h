// The http(s) and s3 sources: range GETs with retries, the size from Content-Range or HEAD.
#pragma once

#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "io/http_client.h"
#include "kerchunk/io/byte_source.h"

namespace kerchunk::io::internal {

/// Loads libcurl, and for S3 (signed requests) libcrypto, when a run first reads a remote file:
/// NotFound naming the library that cannot be loaded.
Status LoadRemoteLibraries(bool s3);

/// An object in an S3 bucket, as an s3:// URL names it.
struct S3Location {
  std::string bucket;
  std::string key;  ///< without the leading "/"; may be empty (a bucket or a prefix)
};

/// Parses "s3://bucket/key"; InvalidArgument naming the URL when there is no bucket.
Result<S3Location> ParseS3Url(std::string_view url);

/// The HTTP URL of `location` (its key percent-encoded, "/" kept) under `options`' endpoint and
/// addressing style; `host` and `path` receive the parts the signature covers.
std::string S3HttpUrl(const S3Location& location, const SourceOptions& options,
                      std::string* host = nullptr, std::string* path = nullptr);

/// A file behind an HTTP(S) server, read with Range requests. Subclasses add headers to each
/// request (the S3 signature).
class HttpSource : public ByteSource {
 public:
  HttpSource(std::string name, std::string http_url, SourceOptions options);

  const std::string& name() const override { return name_; }
  Result<uint64_t> Size() override;
  Result<std::string> Read(uint64_t offset, uint64_t length) override;
  Result<std::string> ReadPrefix(uint64_t max_length) override;
  SourceStats stats() const override { return stats_; }

 protected:
  /// Headers (as "name: value") to add to a request whose own headers are `headers` (lower-case
  /// name, value); none by default.
  virtual std::vector<std::string> ExtraHeaders(
      const std::string& method, const std::vector<std::pair<std::string, std::string>>& headers);

  const std::string& http_url() const { return http_url_; }
  const SourceOptions& options() const { return options_; }

 private:
  // Sends the request, repeating it on transient failures; returns the final response or error.
  // A 206 response shorter than `expected_body` (0: than its Content-Range announces) is a
  // transient failure.
  Result<HttpResponse> Send(const std::string& method,
                            const std::vector<std::pair<std::string, std::string>>& headers,
                            uint64_t max_body, uint64_t expected_body);
  Status ErrorFor(const HttpResponse& response) const;

  std::string name_, http_url_;
  SourceOptions options_;
  HttpClient client_;
  std::optional<uint64_t> size_;
  SourceStats stats_;
};

/// An S3 object: an HttpSource at the object's URL whose requests are signed when there are
/// credentials.
class S3Source : public HttpSource {
 public:
  S3Source(std::string name, const S3Location& location, SourceOptions options);

 protected:
  std::vector<std::string> ExtraHeaders(
      const std::string& method,
      const std::vector<std::pair<std::string, std::string>>& headers) override;

 private:
  std::string host_, path_;
};

}  // namespace kerchunk::io::internal
