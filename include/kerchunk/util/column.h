// Column<T>: the std::vector the reference model keeps its per-reference columns in, with an
// allocator that backs large columns by transparent huge pages.
//
// Why: expanding or loading an index writes ~28 bytes per reference into fresh memory, and the
// first touch of each 4 KiB page is a page fault. Measured on the project's 2-core VM (docs/
// bench.md), a fault costs 5-14 us, so first touches took over half of `unpack` (7.6 M refs/s);
// with the large columns on 2 MiB pages there are 512x fewer faults and unpack runs at ~18 M
// refs/s. Columns under kHugePageMinimum bytes, and systems where madvise(MADV_HUGEPAGE) is
// unavailable or THP is off, get ordinary memory; behaviour is the same either way.
//
// resize(n) leaves the new elements uninitialised (as `new T[n]` does) rather than zeroing them:
// combine grows an array's columns once and fills disjoint runs of them from several threads,
// and zeroing first would fault every page in on one thread. Code that grows a column fills it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <new>
#include <utility>
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

  /// Default-initialisation: nothing for the integers columns hold (see resize above).
  template <typename U>
  void construct(U* p) noexcept {
    ::new (static_cast<void*>(p)) U;
  }
  template <typename U, typename... Args>
  void construct(U* p, Args&&... args) {
    ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
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
