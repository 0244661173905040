// Elements of numpy numeric dtypes read and written in either byte order: the fixed-size loads
// and stores agree with the byte-by-byte definition for every size and order.
#include <gtest/gtest.h>

#include <random>
#include <string>

#include "refs/zarr_dtype.h"

namespace kerchunk::internal {
namespace {

uint64_t ReferenceLoad(const std::string& bytes, uint64_t i, unsigned size, bool big) {
  uint64_t v = 0;
  for (unsigned k = 0; k < size; ++k) {
    v |= uint64_t{static_cast<unsigned char>(bytes[i * size + k])} << 8 * (big ? size - 1 - k : k);
  }
  return v;
}

TEST(NumericTypeTest, LoadAndStoreBitsFollowTheByteOrder) {
  std::mt19937_64 rng(3);
  for (const char* dtype :
       {"|u1", "<i2", ">i2", "<u4", ">u4", "<f4", ">f4", "<i8", ">i8", "<f8", ">f8"}) {
    auto t = NumericType::Parse(dtype);
    ASSERT_TRUE(t) << dtype;
    std::string bytes(t->size * 16, '\0');
    for (char& c : bytes) c = static_cast<char>(rng());
    for (uint64_t i = 0; i < 16; ++i) {
      const uint64_t want = ReferenceLoad(bytes, i, t->size, t->big_endian);
      ASSERT_EQ(t->LoadBits(bytes.data(), i), want) << dtype << " element " << i;
      std::string copy(bytes.size(), '\0');
      t->StoreBits(copy.data(), i, want);
      EXPECT_EQ(copy.substr(i * t->size, t->size), bytes.substr(i * t->size, t->size)) << dtype;
    }
  }
  // Values round trip through LoadDouble/StoreDouble, and ">f8" 1.5 is the big-endian pattern.
  auto be = *NumericType::Parse(">f8");
  std::string b(8, '\0');
  be.StoreDouble(b.data(), 0, 1.5);
  EXPECT_EQ(b, std::string("\x3f\xf8\0\0\0\0\0\0", 8));
  EXPECT_EQ(be.LoadDouble(b.data(), 0), 1.5);
  auto le4 = *NumericType::Parse("<i4");
  std::string n(4, '\xff');
  EXPECT_EQ(le4.LoadSigned(n.data(), 0), -1);
  EXPECT_EQ(le4.LoadDouble(n.data(), 0), -1.0);
}

}  // namespace
}  // namespace kerchunk::internal
