#include "inline_values.h"

#include <algorithm>
#include <unordered_map>

#include "kerchunk/util/checked_math.h"

namespace kerchunk::pack::internal {

InlineColumns BuildInlineColumns(const ArrayRefs& array) {
  InlineColumns c;
  c.variable = array.path();
  std::unordered_map<std::string_view, uint64_t> distinct;
  bool all_distinct = true;
  for (size_t r = 0; r < array.size(); ++r) {
    const ChunkRef ref = array.Get(r);
    if (ref.kind != RefKind::kInline) continue;
    c.chunks.push_back(array.chunk_index(r));
    auto [it, inserted] = distinct.emplace(ref.data, c.lengths.size());
    if (inserted) {
      c.lengths.push_back(ref.data.size());
      c.data += ref.data;
    }
    all_distinct &= inserted;
    c.ids.push_back(it->second);
  }
  if (all_distinct) c.ids.clear();
  return c;
}

Result<std::unique_ptr<InlineDecoder>> InlineDecoder::Make(InlineColumns columns) {
  std::unique_ptr<InlineDecoder> d(new InlineDecoder(std::move(columns)));
  const InlineColumns& c = d->c_;
  const uint64_t n = c.chunks.size(), distinct = c.lengths.size();
  for (uint64_t i = 1; i < n; ++i) {
    if (c.chunks[i] <= c.chunks[i - 1]) {
      return DataLossError("\"chunks\": not strictly increasing");
    }
  }
  if (c.ids.empty() ? distinct != n : c.ids.size() != n) {
    return DataLossError("\"ids\": {} values and {} lengths for {} chunks", c.ids.size(), distinct,
                         n);
  }
  for (uint64_t id : c.ids) {
    if (id >= distinct) return DataLossError("\"ids\": value {} is not below {}", id, distinct);
  }
  d->start_.reserve(distinct);
  uint64_t at = 0;
  for (uint64_t length : c.lengths) {
    d->start_.push_back(at);
    const std::optional<uint64_t> end = CheckedAdd(at, length);
    if (!end || *end > c.data.size()) {
      return DataLossError("\"lengths\": the values need more than the {} bytes of \"data\"",
                           c.data.size());
    }
    at = *end;
  }
  if (at != c.data.size()) {
    return DataLossError("\"lengths\": the values take {} of the {} bytes of \"data\"", at,
                         c.data.size());
  }
  return d;
}

std::optional<size_t> InlineDecoder::Find(uint64_t chunk) const {
  auto it = std::lower_bound(c_.chunks.begin(), c_.chunks.end(), chunk);
  if (it == c_.chunks.end() || *it != chunk) return std::nullopt;
  return static_cast<size_t>(it - c_.chunks.begin());
}

std::string_view InlineDecoder::Value(size_t position) const {
  const uint64_t id = c_.ids.empty() ? position : c_.ids[position];
  return std::string_view(c_.data).substr(start_[id], c_.lengths[id]);
}

}  // namespace kerchunk::pack::internal
