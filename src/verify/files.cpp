// Byte ranges and referenced files: the ranges on their own (ranges), the files that hold them
// (files), and the files against scan's record of them.
#include "verify/files.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <map>
#include <unordered_map>

#include "kerchunk/refs/source_checksum.h"
#include "kerchunk/util/checked_math.h"
#include "kerchunk/util/parallel.h"
#include "verify/checks.h"
#include "verify/metadata.h"

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

// A remote file's size (one HEAD request). A 404 or 403 is the file's error, as a missing local
// file is: the message without the URL, which the findings name.
void StatRemote(const std::string& url, RemoteAccess& access, ResolvedFile& file) {
  Result<std::unique_ptr<io::ByteSource>> source = access.Open(url);
  Result<uint64_t> size = source.ok() ? (*source)->Size() : Result<uint64_t>(source.status());
  if (source.ok()) access.Account((*source)->stats());
  if (size.ok()) {
    file.exists = true;
    file.size = *size;
    return;
  }
  std::string message = size.status().message();
  if (message.starts_with(url + ": ")) message.erase(0, url.size() + 2);
  file.error = message;
}

}  // namespace

Result<std::unique_ptr<io::ByteSource>> RemoteAccess::Open(const std::string& url) const {
  return io::OpenByteSource(url, options_);
}

void RemoteAccess::Account(const io::SourceStats& stats) {
  requests_ += stats.requests;
  bytes_ += stats.bytes_fetched;
}

Result<ResolvedFiles> ResolveFiles(const UrlTable& urls, const std::vector<PrefixRewrite>& rewrites,
                                   bool stat, unsigned threads, const io::SourceOptions* remote) {
  KERCHUNK_ASSIGN_OR_RETURN(UrlToLocalPath mapper, UrlToLocalPath::Make(rewrites));
  ResolvedFiles out;
  if (remote) out.access = std::make_shared<RemoteAccess>(*remote);
  out.by_url.resize(urls.size());
  for (uint32_t id = 0; id < urls.size(); ++id) {
    ResolvedFile& file = out.by_url[id];
    Result<std::string> path = mapper.PathFor(urls[id]);
    if (path.ok() && !path->empty()) {
      file.path = *std::move(path);
    } else if (remote && io::IsRemoteUrl(urls[id])) {
      file.remote = true;
      ++out.read_remotely;
    } else {
      file.reason = path.ok() ? "empty URL" : path.status().message();
      if (out.remote++ == 0) out.first_remote = urls[id];
    }
  }
  if (stat) {
    ParallelFor(out.by_url.size(), threads, [&](size_t i) {
      if (out.by_url[i].local()) Stat(out.by_url[i]);
      if (out.by_url[i].remote)
        StatRemote(urls[static_cast<uint32_t>(i)], *out.access, out.by_url[i]);
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

namespace kerchunk::verify::internal {

RefLocator::RefLocator(const ReferenceSet& refs) : refs_(refs) {
  array_base_.reserve(refs.arrays.size());
  for (const ArrayRefs& a : refs.arrays) {
    array_base_.push_back(entry_base_);
    entry_base_ += a.size();
  }
}

int64_t RefLocator::ArrayOf(uint64_t ordinal) const {
  if (ordinal >= entry_base_) return -1;
  auto it = std::upper_bound(array_base_.begin(), array_base_.end(), ordinal);
  // Empty arrays share a base with the next one; upper_bound lands after all of them.
  return static_cast<int64_t>(it - array_base_.begin()) - 1;
}

std::string RefLocator::Key(uint64_t ordinal) const {
  const int64_t a = ArrayOf(ordinal);
  if (a < 0) return refs_.entries[ordinal - entry_base_].key;
  const ArrayRefs& array = refs_.arrays[static_cast<size_t>(a)];
  return array.KeyPrefix() + array.grid().Key(array.chunk_index(ordinal - array_base_[a]));
}

std::string RefLocator::CaseName(uint64_t ordinal) const {
  const int64_t a = ArrayOf(ordinal);
  if (a < 0) return std::string(NodePath(refs_.entries[ordinal - entry_base_].key));
  return refs_.arrays[static_cast<size_t>(a)].path();
}

}  // namespace kerchunk::verify::internal

// Byte ranges on their own (no file access): each range is sane, uncompressed chunks have
// exactly the chunk's size, and no two ranges of one file overlap. The last two catch a
// reference shifted by a few bytes or given a wrong length even where decoding cannot (raw
// data decodes from any bytes), as long as a neighbouring chunk is referenced too.
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

namespace kerchunk::verify::internal {
namespace {

struct Range {
  uint64_t offset;
  uint64_t end;
  uint64_t ordinal;
  bool operator<(const Range& o) const {
    if (offset != o.offset) return offset < o.offset;
    if (end != o.end) return end < o.end;
    return ordinal < o.ordinal;
  }
};

bool Usable(uint64_t offset, uint64_t length) {
  return length != 0 && length != ArrayRefs::kWholeFileLength && CheckedAdd(offset, length);
}

// The ranges of every URL, grouped by URL (a counting sort on the URL id).
struct RangesByUrl {
  std::vector<Range> ranges;
  std::vector<uint64_t> start;  // ranges of URL u: [start[u], start[u + 1])
};

RangesByUrl Collect(const ReferenceSet& refs, const RefLocator& locator) {
  RangesByUrl out;
  out.start.assign(refs.urls.size() + 1, 0);
  auto for_each = [&](auto&& fn) {
    for (size_t a = 0; a < refs.arrays.size(); ++a) {
      const ArrayRefs& array = refs.arrays[a];
      const auto& urls = array.urls();
      const auto& offsets = array.offsets();
      const auto& lengths = array.lengths();
      for (size_t i = 0; i < array.size(); ++i) {
        if (urls[i] > ArrayRefs::kMaxUrlId || !Usable(offsets[i], lengths[i])) continue;
        fn(urls[i], offsets[i], lengths[i], locator.ChunkOrdinal(a, i));
      }
    }
    for (size_t e = 0; e < refs.entries.size(); ++e) {
      const EntryValue& v = refs.entries[e].value;
      if (v.kind != EntryValue::Kind::kRange || !Usable(v.offset, v.length)) continue;
      fn(v.url, v.offset, v.length, locator.EntryOrdinal(e));
    }
  };
  for_each([&](uint32_t url, uint64_t, uint64_t, uint64_t) { ++out.start[url + 1]; });
  for (size_t u = 1; u < out.start.size(); ++u) out.start[u] += out.start[u - 1];
  std::vector<uint64_t> next(out.start.begin(), out.start.end() - 1);
  out.ranges.resize(out.start.back());
  for_each([&](uint32_t url, uint64_t offset, uint64_t length, uint64_t ordinal) {
    out.ranges[next[url]++] = {offset, offset + length, ordinal};
  });
  return out;
}

// Sorts a URL's ranges unless they are sorted already (files written in order often are).
void SortRanges(std::vector<Range>::iterator begin, std::vector<Range>::iterator end) {
  if (!std::is_sorted(begin, end)) std::sort(begin, end);
}

}  // namespace

std::vector<Overlap> FindOverlaps(const ReferenceSet& refs, const RefLocator& locator,
                                  unsigned threads) {
  RangesByUrl by_url = Collect(refs, locator);
  std::vector<std::vector<Overlap>> per_url(refs.urls.size());
  ParallelFor(refs.urls.size(), threads, [&](size_t u) {
    auto begin = by_url.ranges.begin() + static_cast<ptrdiff_t>(by_url.start[u]);
    auto end = by_url.ranges.begin() + static_cast<ptrdiff_t>(by_url.start[u + 1]);
    SortRanges(begin, end);
    // The range reaching furthest so far: any later range starting before its end overlaps it.
    const Range* reach = nullptr;
    for (auto it = begin; it != end; ++it) {
      if (reach && it->offset < reach->end) {
        per_url[u].push_back({it->ordinal, reach->ordinal, static_cast<uint32_t>(u)});
      }
      if (!reach || it->end > reach->end) reach = &*it;
    }
  });
  std::vector<Overlap> out;
  for (auto& v : per_url) out.insert(out.end(), v.begin(), v.end());
  std::sort(out.begin(), out.end(),
            [](const Overlap& x, const Overlap& y) { return x.ordinal < y.ordinal; });
  return out;
}

Finding DescribeOverlap(const ReferenceSet& refs, const RefLocator& locator, const Overlap& o) {
  auto range_of = [&](uint64_t ordinal) -> std::pair<uint64_t, uint64_t> {
    const int64_t a = locator.ArrayOf(ordinal);
    if (a < 0) {
      const EntryValue& v = refs.entries[ordinal - locator.EntryOrdinal(0)].value;
      return {v.offset, v.offset + v.length};
    }
    const ArrayRefs& array = refs.arrays[static_cast<size_t>(a)];
    const size_t i = ordinal - locator.ChunkOrdinal(static_cast<size_t>(a), 0);
    return {array.offsets()[i], array.offsets()[i] + array.lengths()[i]};
  };
  auto [a0, a1] = range_of(o.ordinal);
  auto [b0, b1] = range_of(o.other);
  std::string key = locator.Key(o.ordinal);
  std::string message = fmt::format("{}: bytes [{}, {}) of {} overlap bytes [{}, {}) of {}", key,
                                    a0, a1, refs.urls[o.url], b0, b1, locator.Key(o.other));
  return {std::move(key), std::move(message)};
}

}  // namespace kerchunk::verify::internal

namespace kerchunk::verify::internal {

FileReader::Descriptor::~Descriptor() { ::close(fd); }

Result<std::shared_ptr<const FileReader::Descriptor>> FileReader::Open(uint32_t url) {
  std::lock_guard lock(mutex_);
  if (open_[url]) {
    recent_.remove(url);
    recent_.push_front(url);
    return open_[url];
  }
  const ResolvedFile& f = files_.by_url[url];
  if (!f.local()) return IoError("{}: {}", url, f.reason);
  const int fd = ::open(f.path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return IoError("cannot open {}: {}", f.path, std::strerror(errno));
  open_[url] = std::make_shared<const Descriptor>(fd);
  recent_.push_front(url);
  while (recent_.size() > max_open_) {
    open_[recent_.back()].reset();  // readers still using it keep it open until they finish
    recent_.pop_back();
  }
  return open_[url];
}

Status FileReader::Read(uint32_t url, uint64_t offset, uint64_t length, std::string& out) {
  KERCHUNK_ASSIGN_OR_RETURN(std::shared_ptr<const Descriptor> descriptor, Open(url));
  const int fd = descriptor->fd;
  out.resize(length);
  uint64_t done = 0;
  while (done < length) {
    const ssize_t n =
        ::pread(fd, out.data() + done, length - done, static_cast<off_t>(offset + done));
    if (n < 0) {
      if (errno == EINTR) continue;
      return IoError("cannot read {}: {}", files_.by_url[url].path, std::strerror(errno));
    }
    if (n == 0) {
      return DataLossError("{} ends at byte {}, inside the range [{}, {})", files_.by_url[url].path,
                           offset + done, offset, offset + length);
    }
    done += static_cast<uint64_t>(n);
  }
  return OkStatus();
}

Status FileReader::ReadAll(uint32_t url, std::string& out) {
  return Read(url, 0, files_.by_url[url].size, out);
}

bool Sampled(uint64_t array, uint64_t chunk, double fraction, uint64_t seed) {
  if (fraction >= 1) return true;
  // splitmix64 of the three values: cheap and well mixed.
  uint64_t x = seed ^ (array * 0x9E3779B97F4A7C15ull) ^ (chunk + 0x632BE59BD9B4E019ull);
  x ^= x >> 30;
  x *= 0xBF58476D1CE4E5B9ull;
  x ^= x >> 27;
  x *= 0x94D049BB133111EBull;
  x ^= x >> 31;
  return static_cast<double>(x >> 11) < fraction * 9007199254740992.0;  // 2^53
}

}  // namespace kerchunk::verify::internal

// Referenced files: each exists and holds every byte range that names it. A truncated or
// swapped (smaller) file shows up here without reading any data.
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
    if (!f.readable()) {
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

// The referenced files against the scan's record of them: a file rewritten after the scan (same
// name, other content) keeps every byte range valid-looking, so only its size and modification
// time tell, and with scan --checksum the bytes no reference points at (its metadata), which a
// rewrite that kept size and time changes too.
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
  // file already, and a missing file has no size or time to compare. A remote file has no
  // modification time of the scan's kind (the record is of local files).
  std::vector<std::pair<const SourceFileRecord*, uint32_t>> checked;
  bool any_checksum = false;
  for (const SourceFileRecord& recorded : records) {
    std::optional<uint32_t> id = refs.urls.Find(recorded.url);
    if (!id || !files.by_url[*id].usable() || !files.by_url[*id].local()) continue;
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
