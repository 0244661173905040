// Column<T>: a std::vector whose large allocations are mapped on their own, 2 MiB aligned.
#include "kerchunk/util/column.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <numeric>

namespace kerchunk {
namespace {

bool HugePageAligned(const void* p) {
  return reinterpret_cast<uintptr_t>(p) % internal::kHugePageSize == 0;
}

TEST(ColumnTest, LargeColumnsAreHugePageAlignedAndKeepTheirValuesThroughGrowth) {
  Column<uint64_t> column;
  // Grows by doubling across the threshold: small allocations, then mapped ones.
  for (uint64_t i = 0; i < 3'000'000; ++i) column.push_back(i * 7);
  EXPECT_TRUE(HugePageAligned(column.data()));
  for (uint64_t i = 0; i < column.size(); i += 9973) ASSERT_EQ(column[i], i * 7);
  EXPECT_EQ(column.back(), 2'999'999u * 7);

  Column<uint64_t> copy = column;  // another mapping, same values
  EXPECT_NE(copy.data(), column.data());
  EXPECT_TRUE(copy == column);
  column.resize(10);
  column.shrink_to_fit();  // back to an ordinary allocation
  EXPECT_EQ(column.size(), 10u);
  EXPECT_EQ(column[9], 63u);
  EXPECT_EQ(copy[2'999'999], 2'999'999u * 7);
}

TEST(ColumnTest, SizesJustAroundTheThresholdAndOddElementSizes) {
  const size_t at = internal::kHugePageMinimum / sizeof(uint32_t);
  for (size_t n : {at - 1, at, at + 1, 3 * at + 5}) {
    Column<uint32_t> column(n);
    std::iota(column.begin(), column.end(), 0u);
    EXPECT_EQ(column[n - 1], n - 1);
    if (n >= at) {
      EXPECT_TRUE(HugePageAligned(column.data()));
    }
  }
}

TEST(ColumnTest, AnImpossibleSizeThrowsBadAlloc) {
  ColumnAllocator<uint64_t> allocator;
  EXPECT_THROW((void)allocator.allocate(SIZE_MAX / 4), std::bad_alloc);
  EXPECT_THROW((void)allocator.allocate(SIZE_MAX / 16), std::bad_alloc);
}

}  // namespace
}  // namespace kerchunk
