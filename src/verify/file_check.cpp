// Referenced files: each exists and holds every byte range that names it. A truncated or
// swapped (smaller) file shows up here without reading any data.
#include <fmt/format.h>

#include <map>

#include "kerchunk/util/checked_math.h"
#include "verify/checks.h"

namespace kerchunk::verify::internal {
namespace {

// References of one array into a file that cannot be checked, reported once per file.
struct Unusable {
  uint64_t count = 0;
  std::string first_key;
};

void ReportUnusable(const UrlTable& urls, const ResolvedFiles& files,
                    const std::map<uint32_t, Unusable>& unusable, CaseLog& log) {
  for (const auto& [url, u] : unusable) {
    const ResolvedFile& f = files.by_url[url];
    if (!f.local()) {
      log.Skip(u.count, "remote URL without --rewrite");
      continue;
    }
    log.Fail(u.first_key, fmt::format("{}: {} {} ({} reference{} into it)", u.first_key,
                                      DescribeFile(urls, files, url), f.error, u.count,
                                      u.count == 1 ? "" : "s"));
  }
}

struct RefView {
  uint32_t url;
  uint64_t offset;
  uint64_t length;  // ArrayRefs::kWholeFileLength for a whole file
};

// Checks one reference against its file; `key` is called only to name a problem.
template <typename KeyFn>
void CheckRef(const UrlTable& urls, const ResolvedFiles& files, const RefView& ref,
              std::optional<uint64_t> whole_size, KeyFn&& key, std::map<uint32_t, Unusable>& bad,
              CaseLog& log) {
  const ResolvedFile& f = files.by_url[ref.url];
  if (!f.usable()) {
    Unusable& u = bad[ref.url];
    if (u.count++ == 0) u.first_key = key();
    return;
  }
  if (ref.length == ArrayRefs::kWholeFileLength) {
    if (whole_size && f.size != *whole_size) {
      log.FailWith([&] {
        std::string k = key();
        return Finding{k, fmt::format("{}: whole-file reference to {} ({} bytes), but an "
                                      "uncompressed chunk is {} bytes",
                                      k, DescribeFile(urls, files, ref.url), f.size, *whole_size)};
      });
    }
    return;
  }
  if (RangeWithin(ref.offset, ref.length, f.size)) return;
  log.FailWith([&] {
    std::string k = key();
    const std::optional<uint64_t> end = CheckedAdd(ref.offset, ref.length);
    return Finding{k, fmt::format("{}: bytes [{}, {}) lie beyond the end of {} ({} bytes)", k,
                                  ref.offset, end ? fmt::format("{}", *end) : "overflow",
                                  DescribeFile(urls, files, ref.url), f.size)};
  });
}

CaseLog CheckArrayFiles(const ReferenceSet& refs, const ArrayRefs& array, const ArrayInfo* info,
                        const ResolvedFiles& files, const Report& report) {
  CaseLog log = report.NewCase(Check::kFiles, array.path());
  const std::optional<uint64_t> whole_size =
      info && info->valid ? info->stored_size : std::optional<uint64_t>();
  std::map<uint32_t, Unusable> bad;
  uint64_t examined = 0;
  for (size_t i = 0; i < array.size(); ++i) {
    const uint32_t url = array.urls()[i];
    if (url > ArrayRefs::kMaxUrlId) continue;  // inline
    ++examined;
    CheckRef(
        refs.urls, files, {url, array.offsets()[i], array.lengths()[i]}, whole_size,
        [&] { return array.KeyPrefix() + array.grid().Key(array.chunk_index(i)); }, bad, log);
  }
  uint64_t unusable = 0;
  for (const auto& [url, u] : bad) unusable += u.count;
  log.Examined(examined - unusable);
  ReportUnusable(refs.urls, files, bad, log);
  return log;
}

}  // namespace

void CheckFiles(const ReferenceSet& refs, const Catalog& catalog, const ResolvedFiles& files,
                Report& report) {
  for (const ArrayRefs& array : refs.arrays) {
    report.Add(CheckArrayFiles(refs, array, catalog.Find(array.path()), files, report));
  }
  for (const Entry& e : refs.entries) {
    const EntryValue& v = e.value;
    if (v.kind != EntryValue::Kind::kRange && v.kind != EntryValue::Kind::kWholeFile) continue;
    CaseLog log = report.NewCase(Check::kFiles, std::string(NodePath(e.key)));
    std::map<uint32_t, Unusable> bad;
    const uint64_t length =
        v.kind == EntryValue::Kind::kRange ? v.length : ArrayRefs::kWholeFileLength;
    CheckRef(
        refs.urls, files, {v.url, v.offset, length}, std::nullopt, [&] { return e.key; }, bad, log);
    log.Examined(bad.empty() ? 1 : 0);
    ReportUnusable(refs.urls, files, bad, log);
    report.Add(std::move(log));
  }
  report.MarkRun(Check::kFiles);
}

}  // namespace kerchunk::verify::internal
