// Column<T>: the std::vector the reference model keeps its per-reference columns in, with an
// allocator that backs large columns by transparent huge pages.
//
// Why: expanding or loading an index writes ~28 bytes per reference into fresh memory, and the
// first touch of each 4 KiB page is a page fault. Measured on the project's 2-core VM (docs/
// bench.md), a fault costs 5-14 us, so first touches took over half of `unpack` (7.6 M refs/s);
// with the large columns on 2 MiB pages there are 512x fewer faults and unpack runs at ~18 M
// refs/s. Columns under kHugePageMinimum bytes, and systems where madvise(MADV_HUGEPAGE) is
// unavailable or THP is off, get ordinary memory; behaviour is the same either way.
#pragma once

#include <cstddef>
#include <cstdint>
#include <new>
#include <vector>

namespace kerchunk {

namespace internal {
inline constexpr size_t kHugePageSize = size_t{2} << 20;
/// Allocations of at least this many bytes are mapped on their own, 2 MiB aligned, and advised
/// to use huge pages.
inline constexpr size_t kHugePageMinimum = kHugePageSize;
/// Maps `bytes` (>= kHugePageMinimum) aligned to kHugePageSize; throws std::bad_alloc.
void* AllocateHugePageBacked(size_t bytes);
void FreeHugePageBacked(void* p, size_t bytes);
}  // namespace internal

template <typename T>
class ColumnAllocator {
 public:
  using value_type = T;

  ColumnAllocator() noexcept = default;
  template <typename U>
  ColumnAllocator(const ColumnAllocator<U>&) noexcept {}  // NOLINT: allocators convert implicitly

  T* allocate(size_t n) {
    if (n > SIZE_MAX / sizeof(T)) throw std::bad_alloc();
    const size_t bytes = n * sizeof(T);
    if (bytes >= internal::kHugePageMinimum) {
      return static_cast<T*>(internal::AllocateHugePageBacked(bytes));
    }
    return std::allocator<T>().allocate(n);
  }
  void deallocate(T* p, size_t n) noexcept {
    const size_t bytes = n * sizeof(T);
    if (bytes >= internal::kHugePageMinimum) {
      internal::FreeHugePageBacked(p, bytes);
      return;
    }
    std::allocator<T>().deallocate(p, n);
  }

  template <typename U>
  bool operator==(const ColumnAllocator<U>&) const noexcept {
    return true;
  }
};

/// A per-reference column of the reference model.
template <typename T>
using Column = std::vector<T, ColumnAllocator<T>>;

}  // namespace kerchunk
