#include "io/remote_source.h"

#include <fmt/format.h>

#include <charconv>
#include <chrono>
#include <cinttypes>
#include <cstdio>
#include <thread>

#include "io/crypto_api_table.h"
#include "io/curl_api_table.h"
#include "io/sigv4.h"

namespace kerchunk::io::internal {

Status LoadRemoteLibraries(bool s3) {
  KERCHUNK_RETURN_IF_ERROR(curl::LoadLibrary());
  if (s3) KERCHUNK_RETURN_IF_ERROR(crypto::LoadLibrary());
  return OkStatus();
}

namespace {

// "bytes 0-9/1234" -> 1234; nullopt when absent or "*".
std::optional<uint64_t> TotalOfContentRange(const HttpResponse& r) {
  auto it = r.headers.find("content-range");
  if (it == r.headers.end()) return std::nullopt;
  const std::string& v = it->second;
  const size_t slash = v.rfind('/');
  if (slash == std::string::npos) return std::nullopt;
  uint64_t total = 0;
  auto [end, err] = std::from_chars(v.data() + slash + 1, v.data() + v.size(), total);
  if (err != std::errc() || end != v.data() + v.size()) return std::nullopt;
  return total;
}

std::optional<uint64_t> ContentLength(const HttpResponse& r) {
  auto it = r.headers.find("content-length");
  if (it == r.headers.end()) return std::nullopt;
  uint64_t n = 0;
  const std::string& v = it->second;
  auto [end, err] = std::from_chars(v.data(), v.data() + v.size(), n);
  if (err != std::errc() || end != v.data() + v.size()) return std::nullopt;
  return n;
}

// "bytes 0-99/1234" -> 100: the length of the body a 206 response announces.
std::optional<uint64_t> LengthOfContentRange(const HttpResponse& r) {
  auto it = r.headers.find("content-range");
  if (it == r.headers.end()) return std::nullopt;
  uint64_t first = 0, last = 0;
  if (std::sscanf(it->second.c_str(), "bytes %" SCNu64 "-%" SCNu64, &first, &last) != 2 ||
      last < first) {
    return std::nullopt;
  }
  return last - first + 1;
}

bool IsTransientStatus(long status) { return status == 429 || (status >= 500 && status < 600); }

}  // namespace

std::vector<std::string> XmlValues(std::string_view xml, std::string_view tag);

Result<S3Location> ParseS3Url(std::string_view url) {
  constexpr std::string_view kScheme = "s3://";
  if (!url.starts_with(kScheme)) return InvalidArgumentError("{}: not an s3:// URL", url);
  std::string_view rest = url.substr(kScheme.size());
  const size_t slash = rest.find('/');
  S3Location out;
  out.bucket = std::string(rest.substr(0, slash));
  if (slash != std::string_view::npos) out.key = std::string(rest.substr(slash + 1));
  if (out.bucket.empty()) return InvalidArgumentError("{}: no bucket in the s3:// URL", url);
  return out;
}

std::string S3HttpUrl(const S3Location& location, const SourceOptions& options, std::string* host,
                      std::string* path) {
  std::string endpoint = options.s3_endpoint.empty()
                             ? fmt::format("https://s3.{}.amazonaws.com", options.s3_region)
                             : options.s3_endpoint;
  while (endpoint.ends_with('/')) endpoint.pop_back();
  const size_t scheme_end = endpoint.find("://");
  const std::string scheme = endpoint.substr(0, scheme_end);
  const std::string endpoint_host =
      scheme_end == std::string::npos ? endpoint : endpoint.substr(scheme_end + 3);
  // Custom endpoints (MinIO, Ceph, a data centre's gateway) rarely have a DNS name per bucket.
  const bool path_style = options.s3_path_style || !options.s3_endpoint.empty();
  const std::string key = UriEncode(location.key, /*keep_slash=*/true);
  std::string url_host, url_path;
  if (path_style) {
    url_host = endpoint_host;
    url_path = "/" + UriEncode(location.bucket, false) + "/" + key;
  } else {
    url_host = location.bucket + "." + endpoint_host;
    url_path = "/" + key;
  }
  if (host) *host = url_host;
  if (path) *path = url_path;
  return scheme + "://" + url_host + url_path;
}

HttpSource::HttpSource(std::string name, std::string http_url, SourceOptions options)
    : name_(std::move(name)),
      http_url_(std::move(http_url)),
      options_(std::move(options)),
      client_(options_) {}

std::vector<std::string> HttpSource::ExtraHeaders(
    const std::string&, const std::vector<std::pair<std::string, std::string>>&) {
  return {};
}

Status HttpSource::ErrorFor(const HttpResponse& r) const {
  switch (r.status) {
    case 404:
      return NotFoundError("{}: not found (HTTP 404)", name_);
    case 401:
    case 403:
      return IoError("{}: access denied (HTTP {}){}", name_, r.status,
                     name_.starts_with("s3://")
                         ? "; signed requests need AWS credentials (AWS_ACCESS_KEY_ID, "
                           "AWS_SECRET_ACCESS_KEY or ~/.aws/credentials)"
                         : "; a token may be needed (--header)");
    default:
      return IoError("{}: HTTP {}", name_, r.status);
  }
}

Result<HttpResponse> HttpSource::Send(
    const std::string& method, const std::vector<std::pair<std::string, std::string>>& headers,
    uint64_t max_body, uint64_t expected_body) {
  int wait_ms = options_.retry_wait_ms;
  Status last;
  for (int attempt = 1; attempt <= std::max(1, options_.attempts); ++attempt) {
    if (attempt > 1) {
      ++stats_.retries;
      std::this_thread::sleep_for(std::chrono::milliseconds(wait_ms));
      wait_ms *= 2;
    }
    std::vector<std::string> lines = options_.headers;
    for (const auto& [name, value] : headers) lines.push_back(name + ": " + value);
    for (std::string& extra : ExtraHeaders(method, headers)) lines.push_back(std::move(extra));
    bool transient = false;
    ++stats_.requests;
    Result<HttpResponse> r = client_.Perform(method, http_url_, lines, max_body, transient);
    if (!r.ok()) {
      last = r.status();
      if (transient) continue;
      return std::move(r).status();
    }
    stats_.bytes_fetched += r->body.size();
    if (IsTransientStatus(r->status)) {
      last = IoError("{}: HTTP {}", name_, r->status);
      continue;
    }
    // A body shorter than asked for: the connection was closed early.
    const uint64_t announced =
        expected_body ? expected_body : LengthOfContentRange(*r).value_or(r->body.size());
    if (r->status == 206 && r->body.size() != announced && method != "HEAD") {
      last = IoError("{}: the server sent {} of {} bytes", name_, r->body.size(), announced);
      continue;
    }
    return r;
  }
  return IoError("{} (after {} attempts)", last.message(), std::max(1, options_.attempts));
}

Result<uint64_t> HttpSource::Size() {
  if (size_) return *size_;
  KERCHUNK_ASSIGN_OR_RETURN(HttpResponse r, Send("HEAD", {}, 0, 0));
  if (r.status != 200) return ErrorFor(r);
  auto length = ContentLength(r);
  if (!length) return IoError("{}: the server did not say the size (no Content-Length)", name_);
  size_ = *length;
  return *size_;
}

Result<std::string> HttpSource::Read(uint64_t offset, uint64_t length) {
  if (length == 0) return std::string();
  if (size_ && (offset > *size_ || length > *size_ - offset)) {
    return DataLossError("{}: expected {} bytes at offset {}, the file has {}", name_, length,
                         offset, *size_);
  }
  const std::vector<std::pair<std::string, std::string>> headers = {
      {"range", fmt::format("bytes={}-{}", offset, offset + length - 1)}};
  // A server that ignores Range sends the whole file: accepted when that is not much more than
  // the bytes up to the end of the range (HttpClient's allowance), refused otherwise.
  KERCHUNK_ASSIGN_OR_RETURN(HttpResponse r, Send("GET", headers, offset + length, length));
  if (r.status == 416) {
    size_ = TotalOfContentRange(r);
    return DataLossError("{}: expected {} bytes at offset {}, {}", name_, length, offset,
                         size_ ? fmt::format("the file has {}", *size_) : "beyond the end");
  }
  if (r.status == 206) {
    if (auto total = TotalOfContentRange(r)) size_ = *total;
    if (r.body.size() != length) {
      return IoError("{}: asked for {} bytes at offset {}, the server sent {}", name_, length,
                     offset, r.body.size());
    }
    return std::move(r.body);
  }
  if (r.status == 200) {  // a server that ignores Range: the whole file
    size_ = r.body.size();
    if (r.body.size() < offset + length) {
      return DataLossError("{}: expected {} bytes at offset {}, the file has {}", name_, length,
                           offset, r.body.size());
    }
    return r.body.substr(offset, length);
  }
  return ErrorFor(r);
}

Result<std::string> HttpSource::ReadPrefix(uint64_t max_length) {
  if (size_ || max_length == 0) return ByteSource::ReadPrefix(max_length);
  const std::vector<std::pair<std::string, std::string>> headers = {
      {"range", fmt::format("bytes=0-{}", max_length - 1)}};
  // The body is whatever part of the range the file has: its length is not known yet.
  KERCHUNK_ASSIGN_OR_RETURN(HttpResponse r, Send("GET", headers, max_length, 0));
  if (r.status == 416) {  // an empty file
    const auto total = TotalOfContentRange(r);
    if (total && *total == 0) {
      size_ = 0;
      return std::string();
    }
    return IoError("{}: HTTP 416 for the first {} bytes", name_, max_length);
  }
  if (r.status == 206) {
    const auto total = TotalOfContentRange(r);
    if (!total) return IoError("{}: a partial response without the file's size", name_);
    size_ = *total;
    if (r.body.size() != std::min(*total, max_length)) {
      return IoError("{}: asked for the first {} bytes of {}, the server sent {}", name_,
                     std::min(*total, max_length), *total, r.body.size());
    }
    return std::move(r.body);
  }
  if (r.status == 200) {  // a server that ignores Range: the whole (small) file
    size_ = r.body.size();
    if (r.body.size() > max_length) r.body.resize(max_length);
    return std::move(r.body);
  }
  return ErrorFor(r);
}

S3Source::S3Source(std::string name, const S3Location& location, SourceOptions options)
    : HttpSource(std::move(name), S3HttpUrl(location, options), options) {
  S3HttpUrl(location, this->options(), &host_, &path_);  // what the signature covers
}

std::vector<std::string> S3Source::ExtraHeaders(
    const std::string& method, const std::vector<std::pair<std::string, std::string>>& headers) {
  if (options().s3_credentials.empty()) return {};
  SigningRequest request{method, host_, path_, "", headers};
  std::vector<std::string> out;
  for (const auto& [name, value] :
       SignV4(request, options().s3_credentials, options().s3_region, "s3", AmzDateNow())) {
    out.push_back(name + ": " + value);
  }
  return out;
}

// The text of each <tag>...</tag> of `xml`, XML entities decoded (the listing's values hold
// no markup, so a scan for the tags is exact).
std::vector<std::string> XmlValues(std::string_view xml, std::string_view tag) {
  const std::string open = fmt::format("<{}>", tag), close = fmt::format("</{}>", tag);
  std::vector<std::string> out;
  for (size_t at = xml.find(open); at != std::string_view::npos; at = xml.find(open, at)) {
    at += open.size();
    const size_t end = xml.find(close, at);
    if (end == std::string_view::npos) break;
    std::string value;
    for (size_t i = at; i < end; ++i) {
      if (xml[i] != '&') {
        value += xml[i];
        continue;
      }
      static constexpr std::pair<std::string_view, char> kEntities[] = {
          {"&amp;", '&'}, {"&lt;", '<'}, {"&gt;", '>'}, {"&quot;", '"'}, {"&apos;", '\''}};
      bool known = false;
      for (const auto& [entity, c] : kEntities) {
        if (xml.substr(i, entity.size()) == entity) {
          value += c;
          i += entity.size() - 1;
          known = true;
          break;
        }
      }
      if (!known) value += '&';
    }
    out.push_back(std::move(value));
    at = end + close.size();
  }
  return out;
}

}  // namespace kerchunk::io::internal

namespace kerchunk::io {

Result<std::vector<ObjectInfo>> ListS3Objects(std::string_view url, const SourceOptions& options) {
  using namespace internal;
  KERCHUNK_RETURN_IF_ERROR(LoadRemoteLibraries(/*s3=*/true));
  KERCHUNK_ASSIGN_OR_RETURN(S3Location location, ParseS3Url(url));
  const std::string prefix = location.key;
  location.key.clear();
  std::string host, path;
  const std::string bucket_url = S3HttpUrl(location, options, &host, &path);
  HttpClient client(options);
  std::vector<ObjectInfo> out;
  std::string token;
  for (int page = 0;; ++page) {
    std::string query = "list-type=2&prefix=" + UriEncode(prefix, false);
    if (!token.empty()) query += "&continuation-token=" + UriEncode(token, false);
    std::vector<std::string> headers = options.headers;
    if (!options.s3_credentials.empty()) {
      SigningRequest request{"GET", host, path, query, {}};
      for (const auto& [name, value] :
           SignV4(request, options.s3_credentials, options.s3_region, "s3", AmzDateNow())) {
        headers.push_back(name + ": " + value);
      }
    }
    bool transient = false;
    KERCHUNK_ASSIGN_OR_RETURN(
        HttpResponse r,
        client.Perform("GET", bucket_url + "?" + query, headers, uint64_t{64} << 20, transient)
            .Annotate(fmt::format("listing {}", url)));
    if (r.status != 200) {
      const std::vector<std::string> code = XmlValues(r.body, "Code");
      const std::string why = code.empty() ? "" : " " + code[0];
      if (r.status == 404) {
        return NotFoundError("listing {}: HTTP 404{}", url, why);
      }
      return IoError("listing {}: HTTP {}{}", url, r.status, why);
    }
    const std::vector<std::string> keys = XmlValues(r.body, "Key");
    const std::vector<std::string> sizes = XmlValues(r.body, "Size");
    if (keys.size() != sizes.size()) {
      return DataLossError("listing {}: page {} has {} keys but {} sizes", url, page, keys.size(),
                           sizes.size());
    }
    for (size_t i = 0; i < keys.size(); ++i) {
      uint64_t size = 0;
      std::from_chars(sizes[i].data(), sizes[i].data() + sizes[i].size(), size);
      out.push_back({fmt::format("s3://{}/{}", location.bucket, keys[i]), size});
    }
    const std::vector<std::string> truncated = XmlValues(r.body, "IsTruncated");
    const std::vector<std::string> next = XmlValues(r.body, "NextContinuationToken");
    if (truncated.empty() || truncated[0] != "true") break;
    if (next.empty() || next[0] == token) {
      return DataLossError("listing {}: page {} is truncated without a new continuation token", url,
                           page);
    }
    token = next[0];
  }
  return out;
}

}  // namespace kerchunk::io
