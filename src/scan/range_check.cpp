#include "scan/range_check.h"

namespace kerchunk::internal {
namespace {

bool EndsInside(uint64_t offset, uint64_t length, uint64_t file_size) {
  return offset <= file_size && length <= file_size - offset;
}

Status PastTheEnd(std::string_view key, uint64_t offset, uint64_t length, uint64_t file_size) {
  return DataLossError(
      "{} refers to {} bytes at offset {}, past the end of the file ({} bytes): the file is "
      "truncated or its index is corrupt",
      key, length, offset, file_size);
}

}  // namespace

Status CheckRangesInside(const ReferenceSet& refs, const std::string& url, uint64_t file_size) {
  std::optional<uint32_t> id = refs.urls.Find(url);
  if (!id) return OkStatus();
  for (const Entry& e : refs.entries) {
    const EntryValue& v = e.value;
    if (v.kind == EntryValue::Kind::kRange && v.url == *id &&
        !EndsInside(v.offset, v.length, file_size)) {
      return PastTheEnd(e.key, v.offset, v.length, file_size);
    }
  }
  for (const ArrayRefs& a : refs.arrays) {
    const auto& urls = a.urls();
    const auto& offsets = a.offsets();
    const auto& lengths = a.lengths();
    for (size_t i = 0; i < a.size(); ++i) {
      if (urls[i] != *id || lengths[i] == ArrayRefs::kWholeFileLength) continue;
      if (!EndsInside(offsets[i], lengths[i], file_size)) {
        return PastTheEnd(a.KeyPrefix() + a.grid().Key(a.chunk_index(i)), offsets[i], lengths[i],
                          file_size);
      }
    }
  }
  return OkStatus();
}

}  // namespace kerchunk::internal
