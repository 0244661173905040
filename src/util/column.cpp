#include "kerchunk/util/column.h"

#include <sys/mman.h>

#include <cstdint>

namespace kerchunk::internal {
namespace {

size_t RoundUp(size_t bytes) { return (bytes + kHugePageSize - 1) / kHugePageSize * kHugePageSize; }

}  // namespace

void* AllocateHugePageBacked(size_t bytes) {
  if (bytes > SIZE_MAX - 2 * kHugePageSize) throw std::bad_alloc();
  const size_t size = RoundUp(bytes);
  // Over-map by one huge page and trim both ends, so the column starts on a 2 MiB boundary
  // (only aligned 2 MiB ranges can be huge pages).
  const size_t mapped = size + kHugePageSize;
  void* raw = mmap(nullptr, mapped, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
  if (raw == MAP_FAILED) throw std::bad_alloc();
  const auto start = reinterpret_cast<uintptr_t>(raw);
  const uintptr_t aligned = (start + kHugePageSize - 1) / kHugePageSize * kHugePageSize;
  if (aligned > start) munmap(raw, aligned - start);
  const uintptr_t tail = start + mapped - (aligned + size);
  if (tail > 0) munmap(reinterpret_cast<void*>(aligned + size), tail);
  void* p = reinterpret_cast<void*>(aligned);
#ifdef MADV_HUGEPAGE
  madvise(p, size, MADV_HUGEPAGE);  // advice only: without THP the pages are ordinary ones
#endif
  return p;
}

void FreeHugePageBacked(void* p, size_t bytes) { munmap(p, RoundUp(bytes)); }

}  // namespace kerchunk::internal
