#include "verify/overlap.h"

#include <fmt/format.h>

#include <algorithm>

#include "kerchunk/util/checked_math.h"
#include "kerchunk/util/parallel.h"

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
