#include "kerchunk/refs/source_checksum.h"

#include <algorithm>

#include "kerchunk/util/file_io.h"
#include "kerchunk/util/parallel.h"

// Header-only use of xxHash (as in digest.cpp): no xxhash library needed at link time.
#define XXH_INLINE_ALL
#include <xxhash.h>

namespace kerchunk {
namespace {

// `ranges` sorted by offset and merged where they overlap or touch.
std::vector<ReferencedRange> Merged(std::vector<ReferencedRange> ranges) {
  std::sort(ranges.begin(), ranges.end(),
            [](const ReferencedRange& a, const ReferencedRange& b) { return a.offset < b.offset; });
  std::vector<ReferencedRange> out;
  for (const ReferencedRange& r : ranges) {
    // Saturating end: a whole-file reference has length UINT64_MAX.
    const uint64_t end = r.length > UINT64_MAX - r.offset ? UINT64_MAX : r.offset + r.length;
    if (!out.empty() && r.offset <= out.back().offset + out.back().length) {
      const uint64_t back_end = out.back().offset + out.back().length;
      out.back().length = std::max(back_end, end) - out.back().offset;
    } else {
      out.push_back({r.offset, end - r.offset});
    }
  }
  return out;
}

}  // namespace

std::vector<std::vector<ReferencedRange>> ReferencedRangesByUrl(const ReferenceSet& refs) {
  std::vector<std::vector<ReferencedRange>> by_url(refs.urls.size());
  for (const ArrayRefs& array : refs.arrays) {
    for (size_t i = 0; i < array.size(); ++i) {
      const uint32_t url = array.urls()[i];
      if (url > ArrayRefs::kMaxUrlId) continue;  // inline data
      const uint64_t length = array.lengths()[i];
      by_url[url].push_back(length == ArrayRefs::kWholeFileLength
                                ? ReferencedRange{0, UINT64_MAX}
                                : ReferencedRange{array.offsets()[i], length});
    }
  }
  for (const Entry& e : refs.entries) {
    if (e.value.kind == EntryValue::Kind::kRange) {
      by_url[e.value.url].push_back({e.value.offset, e.value.length});
    } else if (e.value.kind == EntryValue::Kind::kWholeFile) {
      by_url[e.value.url].push_back({0, UINT64_MAX});
    }
  }
  return by_url;
}

Result<uint64_t> HashUnreferencedBytes(const std::string& path,
                                       std::vector<ReferencedRange> referenced) {
  KERCHUNK_ASSIGN_OR_RETURN(MappedFile file, MappedFile::Open(path));
  const std::byte* bytes = file.bytes().data();
  XXH3_state_t state;
  XXH3_INITSTATE(&state);
  XXH3_64bits_reset(&state);
  uint64_t at = 0;
  auto hash_up_to = [&](uint64_t end) {
    end = std::min(end, file.size());
    if (end > at) XXH3_64bits_update(&state, bytes + at, end - at);
    at = std::max(at, end);
  };
  for (const ReferencedRange& r : Merged(std::move(referenced))) {
    hash_up_to(r.offset);
    at = std::max(at, r.length > UINT64_MAX - r.offset ? UINT64_MAX : r.offset + r.length);
    if (at >= file.size()) break;
  }
  hash_up_to(file.size());
  return XXH3_64bits_digest(&state);
}

Status AddChecksums(const ReferenceSet& refs,
                    const std::function<std::string(const std::string&)>& url_to_path,
                    unsigned threads, std::vector<SourceFileRecord>& records) {
  const std::vector<std::vector<ReferencedRange>> ranges = ReferencedRangesByUrl(refs);
  std::vector<Status> errors(records.size());
  ParallelFor(records.size(), threads, [&](size_t i) {
    SourceFileRecord& record = records[i];
    const std::optional<uint32_t> id = refs.urls.Find(record.url);
    if (!id) return;
    Result<uint64_t> hash = HashUnreferencedBytes(url_to_path(record.url), ranges[*id]);
    if (hash.ok()) {
      record.metadata_xxh3 = *hash;
    } else {
      errors[i] = hash.status();
    }
  });
  for (Status& e : errors) {
    if (!e.ok()) return e;
  }
  return OkStatus();
}

}  // namespace kerchunk
