#include "kerchunk/io/byte_source.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "io/remote_source.h"
#include "kerchunk/util/file_io.h"

namespace kerchunk::io {
namespace {

// A local file: positioned reads on one open descriptor.
class LocalSource : public ByteSource {
 public:
  explicit LocalSource(std::string path) : path_(std::move(path)) {}

  const std::string& name() const override { return path_; }
  Result<uint64_t> Size() override {
    KERCHUNK_RETURN_IF_ERROR(EnsureOpen());
    return file_.size();
  }
  Result<std::string> Read(uint64_t offset, uint64_t length) override {
    KERCHUNK_RETURN_IF_ERROR(EnsureOpen());
    if (offset > file_.size() || length > file_.size() - offset) {
      return DataLossError("{}: expected {} bytes at offset {}, the file has {}", path_, length,
                           offset, file_.size());
    }
    KERCHUNK_ASSIGN_OR_RETURN(std::string bytes, file_.Read(offset, length));
    stats_.bytes_fetched += bytes.size();
    return bytes;
  }
  SourceStats stats() const override { return stats_; }

 private:
  Status EnsureOpen() {
    if (open_) return OkStatus();
    KERCHUNK_ASSIGN_OR_RETURN(file_, ReadOnlyFile::Open(path_));
    open_ = true;
    return OkStatus();
  }

  std::string path_;
  ReadOnlyFile file_;
  bool open_ = false;
  SourceStats stats_;
};

std::string Env(const char* name) {
  const char* v = std::getenv(name);
  return v ? std::string(v) : std::string();
}

std::string_view Trim(std::string_view s) {
  while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
  while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r'))
    s.remove_suffix(1);
  return s;
}

}  // namespace

Result<std::string> ByteSource::ReadPrefix(uint64_t max_length) {
  KERCHUNK_ASSIGN_OR_RETURN(uint64_t size, Size());
  return Read(0, std::min(size, max_length));
}

bool IsRemoteUrl(std::string_view url) {
  return url.starts_with("http://") || url.starts_with("https://") || url.starts_with("s3://");
}

Result<std::unique_ptr<ByteSource>> OpenByteSource(std::string_view url,
                                                   const SourceOptions& options) {
  const std::string name(url);
  if (url.starts_with("http://") || url.starts_with("https://")) {
    KERCHUNK_RETURN_IF_ERROR(internal::LoadRemoteLibraries(/*s3=*/false));
    return std::unique_ptr<ByteSource>(new internal::HttpSource(name, name, options));
  }
  if (url.starts_with("s3://")) {
    KERCHUNK_ASSIGN_OR_RETURN(internal::S3Location location, internal::ParseS3Url(url));
    if (location.key.empty()) return InvalidArgumentError("{}: no object key in the URL", url);
    KERCHUNK_RETURN_IF_ERROR(internal::LoadRemoteLibraries(/*s3=*/true));
    return std::unique_ptr<ByteSource>(new internal::S3Source(name, location, options));
  }
  if (url.starts_with("file://")) {
    return std::unique_ptr<ByteSource>(new LocalSource(std::string(url.substr(7))));
  }
  if (url.find("://") != std::string_view::npos) {
    return InvalidArgumentError("{}: unknown URL scheme (http, https, s3 and file are read)", url);
  }
  return std::unique_ptr<ByteSource>(new LocalSource(name));
}

Result<std::vector<std::string>> ReadRanges(ByteSource& source, std::span<const ByteRange> ranges,
                                            uint64_t max_gap, uint64_t max_request) {
  std::vector<size_t> order(ranges.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(),
            [&](size_t a, size_t b) { return ranges[a].offset < ranges[b].offset; });
  std::vector<std::string> out(ranges.size());
  for (size_t first = 0; first < order.size();) {
    const uint64_t start = ranges[order[first]].offset;
    uint64_t end = start + ranges[order[first]].length;
    size_t last = first + 1;
    for (; last < order.size(); ++last) {
      const ByteRange& next = ranges[order[last]];
      const uint64_t next_end = std::max(end, next.offset + next.length);
      if (next.offset > end + max_gap || next_end - start > max_request) break;
      end = next_end;
    }
    KERCHUNK_ASSIGN_OR_RETURN(std::string run, source.Read(start, end - start));
    for (size_t r = first; r < last; ++r) {
      const ByteRange& range = ranges[order[r]];
      out[order[r]] = run.substr(range.offset - start, range.length);
    }
    first = last;
  }
  return out;
}

Result<S3Credentials> S3CredentialsFromEnvironment() {
  S3Credentials out{Env("AWS_ACCESS_KEY_ID"), Env("AWS_SECRET_ACCESS_KEY"),
                    Env("AWS_SESSION_TOKEN")};
  if (!out.access_key_id.empty() && !out.secret_access_key.empty()) return out;
  std::string file = Env("AWS_SHARED_CREDENTIALS_FILE");
  if (file.empty()) {
    const std::string home = Env("HOME");
    if (home.empty()) return S3Credentials{};
    file = home + "/.aws/credentials";
  }
  std::string profile = Env("AWS_PROFILE");
  if (profile.empty()) profile = "default";
  std::ifstream in(file);
  if (!in) return S3Credentials{};
  S3Credentials found;
  bool in_profile = false, seen = false;
  for (std::string line; std::getline(in, line);) {
    std::string_view l = Trim(line);
    if (l.empty() || l.front() == '#' || l.front() == ';') continue;
    if (l.front() == '[') {
      in_profile = l == "[" + profile + "]";
      seen = seen || in_profile;
      continue;
    }
    if (!in_profile) continue;
    const size_t eq = l.find('=');
    if (eq == std::string_view::npos) continue;
    const std::string_view name = Trim(l.substr(0, eq)), value = Trim(l.substr(eq + 1));
    if (name == "aws_access_key_id") found.access_key_id = value;
    if (name == "aws_secret_access_key") found.secret_access_key = value;
    if (name == "aws_session_token") found.session_token = value;
  }
  if (!seen) return S3Credentials{};
  if (found.access_key_id.empty() || found.secret_access_key.empty()) {
    return InvalidArgumentError("{}: profile [{}] lacks aws_access_key_id or aws_secret_access_key",
                                file, profile);
  }
  return found;
}

}  // namespace kerchunk::io
