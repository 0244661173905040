// One HTTP(S) request at a time over libcurl, with the connection cache shared by every client
// in the process (keep-alive across files of the same host) and HTTP/2 where the server offers
// it. Retries and the meaning of status codes are the callers' (http_source.cpp).
#pragma once

#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "kerchunk/io/byte_source.h"
#include "kerchunk/util/status.h"

namespace kerchunk::io::internal {

struct HttpResponse {
  long status = 0;
  std::string body;
  std::map<std::string, std::string> headers;  ///< names in lower case, last value wins
  bool body_cut = false;  ///< the transfer ended before the announced Content-Length
};

/// A libcurl easy handle. Not thread-safe; one per source.
class HttpClient {
 public:
  explicit HttpClient(const SourceOptions& options);
  ~HttpClient();
  HttpClient(const HttpClient&) = delete;
  HttpClient& operator=(const HttpClient&) = delete;

  /// Sends `method` ("GET" or "HEAD") to `url` with `headers` ("Name: value" lines) and returns
  /// the response, its body limited to `max_body` bytes (more is an IoError: a server sending
  /// more than asked). Failures to get any response (no connection, timeout, a connection
  /// closed mid-body) are IoError with libcurl's reason, `transient` set when a retry may help.
  Result<HttpResponse> Perform(const std::string& method, const std::string& url,
                               const std::vector<std::string>& headers, uint64_t max_body,
                               bool& transient);

 private:
  void* handle_;  // CURL*
};

}  // namespace kerchunk::io::internal
