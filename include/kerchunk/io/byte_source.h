// Random access to the bytes of a file wherever it lives: a local path, an http(s):// URL read
// with range requests, or an s3:// object (anonymous or signed with AWS Signature Version 4).
// Scanning and verifying files in object stores reads through this one interface, so a scanner
// never knows where its bytes come from. Remote sources count their requests and bytes, which
// the commands report and the tests bound.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "kerchunk/util/status.h"

namespace kerchunk::io {

/// `length` bytes at `offset`.
struct ByteRange {
  uint64_t offset = 0;
  uint64_t length = 0;
};

/// What a source has done so far.
struct SourceStats {
  uint64_t requests = 0;       ///< HTTP requests sent (retries included); 0 for local files
  uint64_t bytes_fetched = 0;  ///< bytes received (or read from disk)
  uint64_t retries = 0;        ///< requests repeated after a transient failure
};

/// Credentials for signed S3 requests (AWS Signature Version 4).
struct S3Credentials {
  std::string access_key_id;
  std::string secret_access_key;
  std::string session_token;  ///< empty when the credentials are not temporary
  bool empty() const { return access_key_id.empty(); }
};

/// How remote sources connect.
struct SourceOptions {
  /// Extra request headers ("Authorization: Bearer ..."), sent to http(s) servers.
  std::vector<std::string> headers;
  /// S3: the endpoint ("https://s3.eu-west-2.amazonaws.com", a MinIO or Ceph URL); empty =
  /// AWS in `s3_region`.
  std::string s3_endpoint;
  std::string s3_region = "us-east-1";
  /// S3: bucket in the path (endpoint/bucket/key) rather than the host name
  /// (bucket.endpoint/key). Non-AWS endpoints usually need it; it is the default with one.
  bool s3_path_style = false;
  /// S3: sign requests with these; empty = anonymous requests.
  S3Credentials s3_credentials;
  /// Attempts per request on a transient failure (5xx, 429, timeout, broken connection, a body
  /// cut short) before the error is reported; the wait doubles from `retry_wait_ms`.
  int attempts = 4;
  int retry_wait_ms = 200;
  /// Seconds to connect, and for a transfer to make no progress, before it is abandoned.
  int connect_timeout_s = 10;
  int stall_timeout_s = 30;
};

/// Random access to one file. Not thread-safe: use one source per thread (sources of the same
/// host share connections).
class ByteSource {
 public:
  virtual ~ByteSource() = default;

  /// The URL or path the source was opened with, for messages.
  virtual const std::string& name() const = 0;
  /// The size in bytes (remote: from the first response or a HEAD request).
  virtual Result<uint64_t> Size() = 0;
  /// Exactly `length` bytes at `offset`: DataLoss naming the source when it ends before;
  /// NotFound for a missing file or object; IoError for other failures, naming the URL and the
  /// HTTP status.
  virtual Result<std::string> Read(uint64_t offset, uint64_t length) = 0;
  /// The first min(size, `max_length`) bytes, and the size known from then on. Remote sources
  /// do it in one request (the size comes with the range's Content-Range) where Size() then
  /// Read() would take two: the head of a file is the first thing every scanner reads.
  virtual Result<std::string> ReadPrefix(uint64_t max_length);
  virtual SourceStats stats() const = 0;
};

/// True for URLs read over the network ("http://", "https://", "s3://").
bool IsRemoteUrl(std::string_view url);

/// A source for a local path, a "file://" URL, an http(s):// URL or an "s3://bucket/key" URL.
/// Opening does not touch the network; errors come with the first read. InvalidArgument for an
/// unknown scheme or a malformed s3 URL.
Result<std::unique_ptr<ByteSource>> OpenByteSource(std::string_view url,
                                                   const SourceOptions& options = {});

/// Reads `ranges` of `source`, in that order, with neighbouring ranges (gaps up to `max_gap`)
/// fetched by one request of at most `max_request` bytes: a chunk index's nodes or a
/// coordinate's chunks are many small ranges close together, and every request is a round trip.
Result<std::vector<std::string>> ReadRanges(ByteSource& source, std::span<const ByteRange> ranges,
                                            uint64_t max_gap = uint64_t{1} << 20,
                                            uint64_t max_request = uint64_t{64} << 20);

/// One object of a bucket listing.
struct ObjectInfo {
  std::string url;  ///< "s3://bucket/key"
  uint64_t size = 0;
};

/// The objects whose keys start with the prefix of `url` ("s3://bucket/prefix", "s3://bucket"),
/// in key order, every page of ListObjectsV2 followed. NotFound for a missing bucket; IoError
/// naming the URL and the server's error code otherwise.
Result<std::vector<ObjectInfo>> ListS3Objects(std::string_view url,
                                              const SourceOptions& options = {});

/// S3 credentials from the environment as the AWS tools read them: AWS_ACCESS_KEY_ID,
/// AWS_SECRET_ACCESS_KEY, AWS_SESSION_TOKEN; else the profile AWS_PROFILE (default "default")
/// of the file AWS_SHARED_CREDENTIALS_FILE (default ~/.aws/credentials). Empty credentials when
/// none are found (anonymous access); InvalidArgument for a credentials file that names the
/// profile but lacks a key.
Result<S3Credentials> S3CredentialsFromEnvironment();

}  // namespace kerchunk::io
