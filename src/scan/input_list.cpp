#include "kerchunk/scan/input_list.h"

#include <glob.h>

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <system_error>

#include "kerchunk/scan/file_scan.h"
#include "kerchunk/util/parallel.h"

namespace kerchunk {
namespace {

namespace fs = std::filesystem;

std::string AbsoluteNormal(const std::string& path) {
  std::error_code ec;
  fs::path absolute = fs::absolute(path, ec);
  if (ec) absolute = path;  // only fails when the current directory is gone
  return absolute.lexically_normal().string();
}

bool IsHidden(const fs::path& p) {
  std::string name = p.filename().string();
  return name.size() > 1 && name[0] == '.';
}

// A file found inside a directory is kept when it looks like HDF5 or NetCDF-3. A file that
// cannot even be opened is kept too, so that the scan reports it (or skips it with
// --on-error skip) instead of leaving it out without a word.
bool LooksScannable(const std::string& path) {
  Result<FileFormat> format = DetectFileFormat(path);
  return !format.ok() || *format != FileFormat::kUnknown;
}

Status ListDirectory(const std::string& dir, std::vector<std::string>& out) {
  std::error_code ec;
  fs::recursive_directory_iterator it(dir, ec), end;
  std::vector<std::string> candidates;
  if (ec) return IoError("{}: cannot list directory: {}", dir, ec.message());
  for (; it != end; it.increment(ec)) {
    if (ec) return IoError("{}: cannot list directory: {}", dir, ec.message());
    const fs::directory_entry& entry = *it;
    if (IsHidden(entry.path())) {
      if (entry.is_directory(ec)) it.disable_recursion_pending();
      continue;
    }
    if (!entry.is_regular_file(ec)) continue;  // follows links to files; skips sockets etc.
    candidates.push_back(entry.path().string());
  }
  if (ec) return IoError("{}: cannot list directory: {}", dir, ec.message());
  // Probing is a few system calls per file, and a folder may hold thousands: on every core.
  std::vector<char> keep(candidates.size());
  ParallelFor(candidates.size(), ResolveThreads(0),
              [&](size_t i) { keep[i] = LooksScannable(candidates[i]); });
  for (size_t i = 0; i < candidates.size(); ++i) {
    if (keep[i]) out.push_back(AbsoluteNormal(candidates[i]));
  }
  return OkStatus();
}

bool HasGlobCharacters(std::string_view s) { return s.find_first_of("*?[") != s.npos; }

Result<std::vector<std::string>> ExpandGlob(const std::string& pattern) {
  glob_t matches{};
  int rc = ::glob(pattern.c_str(), GLOB_ERR, nullptr, &matches);
  std::vector<std::string> out;
  if (rc == 0) out.assign(matches.gl_pathv, matches.gl_pathv + matches.gl_pathc);
  ::globfree(&matches);
  if (rc == GLOB_NOMATCH) return NotFoundError("{}: no file matches this pattern", pattern);
  if (rc != 0) return IoError("{}: cannot expand pattern (a folder could not be read)", pattern);
  return out;
}

// Adds one path (file or directory) of the given status, or says why it cannot be read; `path`
// is as the user wrote it (or a match of their pattern), for errors.
Status AddExisting(const std::string& path, const fs::file_status& status, std::error_code ec,
                   std::vector<std::string>& out) {
  if (fs::is_directory(status)) return ListDirectory(path, out);
  if (fs::is_regular_file(status)) {
    out.push_back(AbsoluteNormal(path));
    return OkStatus();
  }
  if (ec || !fs::exists(status)) return NotFoundError("{}: no such file or directory", path);
  return InvalidArgumentError("{}: not a regular file or directory", path);
}

Status AddInput(const std::string& input, std::vector<std::string>& out) {
  std::error_code ec;
  const fs::file_status status = fs::status(input, ec);  // one stat for the test and the kind
  if (fs::exists(status) || !HasGlobCharacters(input)) return AddExisting(input, status, ec, out);
  KERCHUNK_ASSIGN_OR_RETURN(std::vector<std::string> matches, ExpandGlob(input));
  for (const std::string& match : matches) {
    std::error_code match_ec;
    const fs::file_status match_status = fs::status(match, match_ec);
    KERCHUNK_RETURN_IF_ERROR(AddExisting(match, match_status, match_ec, out));
  }
  return OkStatus();
}

Result<size_t> ParseCount(std::string_view text, std::string_view whole) {
  size_t value = 0;
  auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || ec != std::errc() || end != text.data() + text.size()) {
    return InvalidArgumentError(
        "--shard: expected K/N with whole numbers 0 <= K < N (shards are numbered from 0), "
        "got \"{}\"",
        whole);
  }
  return value;
}

}  // namespace

Result<std::vector<std::string>> ExpandInputs(const std::vector<std::string>& inputs) {
  std::vector<std::string> files;
  for (const std::string& input : inputs) KERCHUNK_RETURN_IF_ERROR(AddInput(input, files));
  std::sort(files.begin(), files.end());
  files.erase(std::unique(files.begin(), files.end()), files.end());
  return files;
}

Result<std::vector<std::string>> ExpandFilePatterns(const std::vector<std::string>& inputs) {
  std::vector<std::string> files;
  for (const std::string& input : inputs) {
    std::error_code ec;
    if (fs::exists(input, ec) || !HasGlobCharacters(input)) {
      if (!fs::exists(input, ec)) return NotFoundError("{}: no such file", input);
      files.push_back(input);
      continue;
    }
    KERCHUNK_ASSIGN_OR_RETURN(std::vector<std::string> matches, ExpandGlob(input));
    files.insert(files.end(), matches.begin(), matches.end());
  }
  return files;
}

std::vector<std::string> ReadFileList(std::istream& in) {
  std::vector<std::string> paths;
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty() && line.back() == '\r') line.pop_back();
    if (!line.empty()) paths.push_back(std::move(line));
  }
  return paths;
}

Result<Shard> ParseShard(std::string_view text) {
  size_t slash = text.find('/');
  if (slash == text.npos) return ParseCount("", text).status();
  KERCHUNK_ASSIGN_OR_RETURN(size_t index, ParseCount(text.substr(0, slash), text));
  KERCHUNK_ASSIGN_OR_RETURN(size_t count, ParseCount(text.substr(slash + 1), text));
  if (count == 0) return InvalidArgumentError("--shard {}: N must be at least 1", text);
  if (index >= count) {
    return InvalidArgumentError("--shard {}: expected K in 0..{} (shards are numbered from 0)",
                                text, count - 1);
  }
  return Shard{index, count};
}

std::vector<std::string> ShardSlice(const std::vector<std::string>& files, const Shard& shard) {
  // 128-bit products: K*M cannot overflow even for absurd shard counts.
  __extension__ using Wide = unsigned __int128;
  auto bound = [&](size_t k) { return static_cast<size_t>(Wide{k} * files.size() / shard.count); };
  return {files.begin() + static_cast<ptrdiff_t>(bound(shard.index)),
          files.begin() + static_cast<ptrdiff_t>(bound(shard.index + 1))};
}

}  // namespace kerchunk
