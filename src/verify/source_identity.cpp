// The referenced files against the scan's record of them: a file rewritten after the scan (same
// name, other content) keeps every byte range valid-looking, so only its size and modification
// time tell, and with scan --checksum the bytes no reference points at (its metadata), which a
// rewrite that kept size and time changes too.
#include <fmt/format.h>

#include "kerchunk/refs/source_checksum.h"
#include "kerchunk/util/parallel.h"
#include "verify/checks.h"

namespace kerchunk::verify::internal {
namespace {

// Fails `log` when the file no longer has the recorded size, time or checksum.
void CompareWithRecord(const SourceFileRecord& recorded, const std::string& described,
                       const std::string& path, const std::vector<ReferencedRange>& ranges,
                       CaseLog& log) {
  Result<SourceFileRecord> now = RecordSourceFile(recorded.url, path);
  if (!now.ok()) {
    log.Fail(recorded.url, fmt::format("{}: {}", described, now.status().message()));
    return;
  }
  if (now->size != recorded.size || now->mtime_ns != recorded.mtime_ns) {
    log.Fail(recorded.url,
             fmt::format("{}: changed since the scan: {} bytes, modified {} (the scan recorded "
                         "{} bytes, modified {})",
                         described, now->size, FormatMtime(now->mtime_ns), recorded.size,
                         FormatMtime(recorded.mtime_ns)));
    return;
  }
  if (!recorded.metadata_xxh3) return;
  Result<uint64_t> hash = HashUnreferencedBytes(path, ranges);
  if (!hash.ok()) {
    log.Fail(recorded.url, fmt::format("{}: {}", described, hash.status().message()));
  } else if (*hash != *recorded.metadata_xxh3) {
    log.Fail(recorded.url,
             fmt::format("{}: changed since the scan: the bytes outside the referenced ranges "
                         "(the file's metadata) hash to {:016x}, the scan recorded {:016x}, "
                         "although size and modification time are the same",
                         described, *hash, *recorded.metadata_xxh3));
  }
}

}  // namespace

void CheckSourceIdentity(const std::vector<SourceFileRecord>& records, const ReferenceSet& refs,
                         const ResolvedFiles& files, unsigned threads, Report& report) {
  // Not referenced, remote, or missing or unreadable: the files check reports those once per
  // file already, and a missing file has no size or time to compare.
  std::vector<std::pair<const SourceFileRecord*, uint32_t>> checked;
  bool any_checksum = false;
  for (const SourceFileRecord& recorded : records) {
    std::optional<uint32_t> id = refs.urls.Find(recorded.url);
    if (!id || !files.by_url[*id].usable()) continue;
    checked.emplace_back(&recorded, *id);
    any_checksum |= recorded.metadata_xxh3.has_value();
  }
  const std::vector<std::vector<ReferencedRange>> ranges =
      any_checksum ? ReferencedRangesByUrl(refs) : std::vector<std::vector<ReferencedRange>>();
  std::vector<CaseLog> logs;
  for (const auto& [recorded, id] : checked)
    logs.push_back(report.NewCase(Check::kFiles, recorded->url));
  // Checksums read files: one file per thread.
  ParallelFor(checked.size(), threads, [&](size_t i) {
    const auto& [recorded, id] = checked[i];
    logs[i].Examined();
    CompareWithRecord(*recorded, DescribeFile(refs.urls, files, id), files.by_url[id].path,
                      recorded->metadata_xxh3 ? ranges[id] : std::vector<ReferencedRange>(),
                      logs[i]);
  });
  for (CaseLog& log : logs) report.Add(std::move(log));
}

}  // namespace kerchunk::verify::internal
