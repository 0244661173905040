// From the URLs a reference set names to the local files verify reads: REMOTE=LOCAL rules
// (--rewrite), then "file://" URLs and plain paths. Remote URLs without a rule have no path;
// the checks that need bytes skip their references and say so.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "kerchunk/refs/reference_set.h"
#include "kerchunk/scan/url_mapping.h"
#include "kerchunk/util/status.h"

namespace kerchunk::verify::internal {

struct ResolvedFile {
  std::string path;    ///< local path; empty when the URL has none
  std::string reason;  ///< why there is no local path
  bool exists = false;
  uint64_t size = 0;
  std::string error;  ///< why the file cannot be used (does not exist, not readable)

  bool local() const { return !path.empty(); }
  bool usable() const { return local() && exists; }
};

struct ResolvedFiles {
  std::vector<ResolvedFile> by_url;  ///< indexed by URL id
  uint64_t remote = 0;               ///< URLs without a local path
  std::string first_remote;          ///< one of them, for messages
};

/// Resolves every URL of `urls` and, when `stat` is set, looks up the sizes (in parallel).
Result<ResolvedFiles> ResolveFiles(const UrlTable& urls, const std::vector<PrefixRewrite>& rewrites,
                                   bool stat, unsigned threads);

/// "URL" or "URL (local PATH)" when the two differ, for messages.
std::string DescribeFile(const UrlTable& urls, const ResolvedFiles& files, uint32_t url);

}  // namespace kerchunk::verify::internal
