// An LSD radix sort of 64-bit values for the packer's statistics: 16-bit digits, skipping the
// digits every value shares (chunk lengths below 4 GiB need two passes), so sorting millions
// of lengths costs a few ns each instead of std::sort's n log n comparisons.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

namespace kerchunk::pack::internal {

inline void RadixSort(std::vector<uint64_t>& values) {
  if (values.size() < 4096) {
    std::sort(values.begin(), values.end());
    return;
  }
  uint64_t all_or = 0, all_and = ~uint64_t{0};
  for (uint64_t v : values) {
    all_or |= v;
    all_and &= v;
  }
  const uint64_t varying = all_or ^ all_and;
  std::vector<uint64_t> buffer(values.size());
  std::vector<size_t> count(65536 + 1);
  for (unsigned shift = 0; shift < 64; shift += 16) {
    if (((varying >> shift) & 0xFFFF) == 0) continue;  // the same digit everywhere
    std::fill(count.begin(), count.end(), 0);
    for (uint64_t v : values) ++count[((v >> shift) & 0xFFFF) + 1];
    for (size_t d = 1; d < count.size(); ++d) count[d] += count[d - 1];
    for (uint64_t v : values) buffer[count[(v >> shift) & 0xFFFF]++] = v;
    values.swap(buffer);
  }
}

}  // namespace kerchunk::pack::internal
