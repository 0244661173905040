// Checksums HDF5 1.10 wrote, read back with h5py:
//   f.create_dataset('a', data=np.arange(10, dtype='<i2'), chunks=(10,), fletcher32=True)
//   f.create_dataset('b', data=np.frombuffer(b'hello world', 'u1'), chunks=(11,), fletcher32=True)
//   base64.b64encode(f[n].id.read_direct_chunk((0,))[1])
#include "kerchunk/codecs/fletcher32.h"

#include <gmock/gmock.h>
#include <gtest/gtest.h>

#include "kerchunk/util/base64.h"

namespace kerchunk::codecs {
namespace {

using ::testing::HasSubstr;

TEST(Fletcher32Test, KnownHdf5Chunks) {
  std::string even = *Base64Decode("AAABAAIAAwAEAAUABgAHAAgACQAALQCl");
  std::string odd = *Base64Decode("aGVsbG8gd29ybGTOkSf8");  // "hello world" (odd length)
  EXPECT_EQ(Fletcher32(even.substr(0, even.size() - 4)), 0xA5002D00u);
  EXPECT_TRUE(VerifyFletcher32(even).ok());
  EXPECT_TRUE(VerifyFletcher32(odd).ok());
}

TEST(Fletcher32Test, AcceptsPre163PairSwappedChecksum) {
  std::string chunk = *Base64Decode("AAABAAIAAwAEAAUABgAHAAgACQAALQCl");
  // 0xA5002D00 with the bytes of each 16-bit half swapped: 0x00A5002D, little-endian.
  chunk.replace(chunk.size() - 4, 4, std::string("\x2d\x00\xa5\x00", 4));
  EXPECT_TRUE(VerifyFletcher32(chunk).ok());
}

TEST(Fletcher32Test, CorruptionIsDataLoss) {
  std::string chunk = *Base64Decode("aGVsbG8gd29ybGTOkSf8");
  chunk[3] ^= 1;
  Status s = VerifyFletcher32(chunk);
  EXPECT_EQ(s.code(), StatusCode::kDataLoss);
  EXPECT_THAT(s.message(), HasSubstr("stored checksum fc2791ce"));
  EXPECT_EQ(VerifyFletcher32("abc").code(), StatusCode::kDataLoss);
}

// Long inputs cross the 360-word reduction blocks, where wrap-around must match HDF5's uint32
// arithmetic: all-0xFF data is the worst case for the sums.
TEST(Fletcher32Test, LongInputsAgreeWithDirectModularSums) {
  for (size_t n : {718, 719, 720, 721, 722, 5000, 5001}) {
    for (char fill : {'\x00', '\x5a', '\xff'}) {
      std::string data(n, fill);
      uint64_t s1 = 0, s2 = 0;
      for (size_t i = 0; i + 1 < n; i += 2) {
        s1 = (s1 + ((uint8_t(data[i]) << 8) | uint8_t(data[i + 1]))) % 65535;
        s2 = (s2 + s1) % 65535;
      }
      if (n % 2) {
        s1 = (s1 + (uint8_t(data[n - 1]) << 8)) % 65535;
        s2 = (s2 + s1) % 65535;
      }
      uint32_t got = Fletcher32(data);
      // HDF5 folds without a final modulo, so 65535 may appear where the modular sum is 0.
      EXPECT_EQ((got & 0xFFFF) % 65535, s1) << n << " " << int(fill);
      EXPECT_EQ((got >> 16) % 65535, s2) << n << " " << int(fill);
    }
  }
}

}  // namespace
}  // namespace kerchunk::codecs
