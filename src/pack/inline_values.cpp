#include "inline_values.h"

#include <zstd.h>

#include <algorithm>
#include <unordered_map>

#include "inline_deflate.h"
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

namespace {

// A value inflates to at most this many times its size plus 4 KiB, and 1 MiB: a zlib stream of
// a constant chunk can inflate a thousandfold, which would cost memory and time for nothing.
constexpr uint64_t kMaxInflation = 64;
constexpr uint64_t kMaxInflatedValue = uint64_t{1} << 20;

// What the container's compressor (zstd level 3 on sections up to 1 MiB) makes of `data`.
size_t CompressedSize(std::string_view data) {
  std::string out(ZSTD_compressBound(data.size()), '\0');
  const size_t n = ZSTD_compress(out.data(), out.size(), data.data(), data.size(), 3);
  return ZSTD_isError(n) ? data.size() : n;
}

}  // namespace

void StoreInflatedWhenSmaller(InlineColumns& c) {
  InlineColumns inflated;
  inflated.deflate.reserve(c.lengths.size());
  std::string_view data = c.data;
  int level = 6;
  bool any = false;
  for (uint64_t length : c.lengths) {
    const std::string_view value = data.substr(0, length);
    data.remove_prefix(length);
    const uint64_t limit = std::min(kMaxInflatedValue, kMaxInflation * length + 4096);
    std::optional<InflatedValue> v = InflateReproducibly(value, level, limit);
    if (v) level = v->level;
    const std::string_view stored = v ? std::string_view(v->bytes) : value;
    inflated.lengths.push_back(stored.size());
    inflated.data += stored;
    inflated.deflate.push_back(v ? static_cast<uint64_t>(v->level) : 0);
    any |= v.has_value();
  }
  if (!any || CompressedSize(inflated.data) >= CompressedSize(c.data)) return;
  c.lengths = std::move(inflated.lengths);
  c.data = std::move(inflated.data);
  c.deflate = std::move(inflated.deflate);
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
  if (!c.deflate.empty()) {
    if (c.deflate.size() != distinct) {
      return DataLossError("\"deflate\": {} levels for {} values", c.deflate.size(), distinct);
    }
    for (uint64_t level : c.deflate) {
      if (level > 9) return DataLossError("\"deflate\": {} is not a zlib level", level);
    }
    d->deflated_.resize(distinct);
  }
  return d;
}

std::optional<size_t> InlineDecoder::Find(uint64_t chunk) const {
  auto it = std::lower_bound(c_.chunks.begin(), c_.chunks.end(), chunk);
  if (it == c_.chunks.end() || *it != chunk) return std::nullopt;
  return static_cast<size_t>(it - c_.chunks.begin());
}

Result<std::string_view> InlineDecoder::Value(size_t position) const {
  const uint64_t id = c_.ids.empty() ? position : c_.ids[position];
  if (c_.deflate.empty() || c_.deflate[id] == 0) return Stored(id);
  std::lock_guard lock(deflated_mutex_);
  if (!deflated_[id]) {
    KERCHUNK_ASSIGN_OR_RETURN(std::string bytes,
                              DeflateAtLevel(Stored(id), static_cast<int>(c_.deflate[id])));
    deflated_[id] = std::make_unique<const std::string>(std::move(bytes));
  }
  return std::string_view(*deflated_[id]);
}

}  // namespace kerchunk::pack::internal
