#include "verify/url_resolver.h"

#include <fmt/format.h>
#include <sys/stat.h>

#include <cerrno>
#include <cstring>

#include "kerchunk/util/parallel.h"

namespace kerchunk::verify::internal {
namespace {

void Stat(ResolvedFile& file) {
  struct stat st {};
  if (::stat(file.path.c_str(), &st) != 0) {
    file.error = errno == ENOENT ? "does not exist" : std::strerror(errno);
    return;
  }
  if (!S_ISREG(st.st_mode)) {
    file.error = "is not a regular file";
    return;
  }
  file.exists = true;
  file.size = static_cast<uint64_t>(st.st_size);
}

}  // namespace

Result<ResolvedFiles> ResolveFiles(const UrlTable& urls, const std::vector<PrefixRewrite>& rewrites,
                                   bool stat, unsigned threads) {
  KERCHUNK_ASSIGN_OR_RETURN(UrlToLocalPath mapper, UrlToLocalPath::Make(rewrites));
  ResolvedFiles out;
  out.by_url.resize(urls.size());
  for (uint32_t id = 0; id < urls.size(); ++id) {
    ResolvedFile& file = out.by_url[id];
    Result<std::string> path = mapper.PathFor(urls[id]);
    if (path.ok() && !path->empty()) {
      file.path = *std::move(path);
    } else {
      file.reason = path.ok() ? "empty URL" : path.status().message();
      if (out.remote++ == 0) out.first_remote = urls[id];
    }
  }
  if (stat) {
    ParallelFor(out.by_url.size(), threads, [&](size_t i) {
      if (out.by_url[i].local()) Stat(out.by_url[i]);
    });
  }
  return out;
}

std::string DescribeFile(const UrlTable& urls, const ResolvedFiles& files, uint32_t url) {
  const std::string& name = urls[url];
  if (url < files.by_url.size() && files.by_url[url].local() && files.by_url[url].path != name) {
    return fmt::format("{} (local {})", name, files.by_url[url].path);
  }
  return name;
}

}  // namespace kerchunk::verify::internal
