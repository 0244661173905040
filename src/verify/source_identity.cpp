// The referenced files against the scan's record of them: a file rewritten after the scan (same
// name, other content) keeps every byte range valid-looking, so only its size and modification
// time tell.
#include <fmt/format.h>

#include "verify/checks.h"

namespace kerchunk::verify::internal {

void CheckSourceIdentity(const std::vector<SourceFileRecord>& records, const UrlTable& urls,
                         const ResolvedFiles& files, Report& report) {
  for (const SourceFileRecord& recorded : records) {
    std::optional<uint32_t> id = urls.Find(recorded.url);
    // Not referenced, remote, or missing or unreadable: the files check reports those once
    // per file already, and a missing file has no size or time to compare.
    if (!id || !files.by_url[*id].usable()) continue;
    const ResolvedFile& file = files.by_url[*id];
    CaseLog log = report.NewCase(Check::kFiles, recorded.url);
    log.Examined();
    Result<SourceFileRecord> now = RecordSourceFile(recorded.url, file.path);
    if (!now.ok()) {
      log.Fail(recorded.url,
               fmt::format("{}: {}", DescribeFile(urls, files, *id), now.status().message()));
    } else if (now->size != recorded.size || now->mtime_ns != recorded.mtime_ns) {
      log.Fail(recorded.url,
               fmt::format("{}: changed since the scan: {} bytes, modified {} (the scan recorded "
                           "{} bytes, modified {})",
                           DescribeFile(urls, files, *id), now->size, FormatMtime(now->mtime_ns),
                           recorded.size, FormatMtime(recorded.mtime_ns)));
    }
    report.Add(std::move(log));
  }
}

}  // namespace kerchunk::verify::internal
