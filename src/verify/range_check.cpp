// Byte ranges on their own (no file access): each range is sane, uncompressed chunks have
// exactly the chunk's size, and no two ranges of one file overlap. The last two catch a
// reference shifted by a few bytes or given a wrong length even where decoding cannot (raw
// data decodes from any bytes), as long as a neighbouring chunk is referenced too.
#include <fmt/format.h>

#include <unordered_map>

#include "kerchunk/util/checked_math.h"
#include "kerchunk/util/parallel.h"
#include "verify/checks.h"
#include "verify/overlap.h"
#include "verify/ref_locator.h"

namespace kerchunk::verify::internal {
namespace {

std::string SizeOrigin(const ArrayInfo& info) {
  return fmt::format(
      "an uncompressed chunk of {} ({} x {}-byte items{}) is {} bytes",
      info.path.empty() ? "(root)" : info.path, fmt::join(info.meta->chunks, " x "),
      info.dtype->itemsize,
      info.pipeline && !info.pipeline->codecs().empty() ? ", size-preserving filters" : "",
      *info.stored_size);
}

// Checks one range; returns false when it is unusable for the overlap check.
bool CheckOneRange(const std::string& url, uint64_t offset, uint64_t length,
                   const std::function<std::string()>& key, CaseLog& log) {
  if (length == 0) {
    log.FailWith([&] {
      std::string k = key();
      return Finding{k, fmt::format("{}: empty byte range at offset {} of {}", k, offset, url)};
    });
    return false;
  }
  if (!CheckedAdd(offset, length)) {
    log.FailWith([&] {
      std::string k = key();
      return Finding{k, fmt::format("{}: offset {} + length {} of {} overflows 64 bits", k, offset,
                                    length, url)};
    });
    return false;
  }
  return true;
}

CaseLog CheckArrayRanges(const ReferenceSet& refs, const ArrayRefs& array, const ArrayInfo* info,
                         const Report& report) {
  CaseLog log = report.NewCase(Check::kRanges, array.path());
  log.Examined(array.size());
  // A plain flag and value rather than std::optional: GCC 12 reports a false maybe-uninitialized
  // on the optional inside this loop.
  const bool has_expected = info && info->valid && info->stored_size.has_value();
  const uint64_t expected = has_expected ? *info->stored_size : 0;
  const auto& urls = array.urls();
  const auto& offsets = array.offsets();
  const auto& lengths = array.lengths();
  for (size_t i = 0; i < array.size(); ++i) {
    const uint32_t url = urls[i];
    auto key = [&] { return array.KeyPrefix() + array.grid().Key(array.chunk_index(i)); };
    if (url == ArrayRefs::kInlineText || url == ArrayRefs::kInlineBase64) {
      if (has_expected && lengths[i] != expected) {
        log.FailWith([&] {
          std::string k = key();
          return Finding{k, fmt::format("{}: inline chunk holds {} bytes, but {}", k, lengths[i],
                                        SizeOrigin(*info))};
        });
      }
      continue;
    }
    if (lengths[i] == ArrayRefs::kWholeFileLength) continue;  // checked with the file size
    if (!CheckOneRange(refs.urls[url], offsets[i], lengths[i], key, log)) continue;
    if (has_expected && lengths[i] != expected) {
      log.FailWith([&] {
        std::string k = key();
        return Finding{
            k, fmt::format("{}: bytes [{}, {}) of {} are {} bytes, but {}", k, offsets[i],
                           offsets[i] + lengths[i], refs.urls[url], lengths[i], SizeOrigin(*info))};
      });
    }
  }
  return log;
}

}  // namespace

void CheckRanges(const ReferenceSet& refs, const Catalog& catalog, const CheckContext& context,
                 Report& report) {
  std::vector<CaseLog> logs(refs.arrays.size(), report.NewCase(Check::kRanges, ""));
  ParallelFor(refs.arrays.size(), context.threads, [&](size_t a) {
    logs[a] = CheckArrayRanges(refs, refs.arrays[a], catalog.Find(refs.arrays[a].path()), report);
  });
  std::unordered_map<uint64_t, size_t> entry_log;  // entry index -> its log
  for (size_t e = 0; e < refs.entries.size(); ++e) {
    const Entry& entry = refs.entries[e];
    if (entry.value.kind != EntryValue::Kind::kRange) continue;
    entry_log.emplace(e, logs.size());
    logs.push_back(report.NewCase(Check::kRanges, std::string(NodePath(entry.key))));
    logs.back().Examined();
    CheckOneRange(
        refs.urls[entry.value.url], entry.value.offset, entry.value.length,
        [&] { return entry.key; }, logs.back());
  }
  const RefLocator locator(refs);
  for (const Overlap& overlap : FindOverlaps(refs, locator, context.threads)) {
    const int64_t a = locator.ArrayOf(overlap.ordinal);
    const size_t log =
        a >= 0 ? static_cast<size_t>(a) : entry_log.at(overlap.ordinal - locator.EntryOrdinal(0));
    logs[log].FailWith([&] { return DescribeOverlap(refs, locator, overlap); });
  }
  for (CaseLog& log : logs) report.Add(std::move(log));
  report.MarkRun(Check::kRanges);
}

}  // namespace kerchunk::verify::internal
