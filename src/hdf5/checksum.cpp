// Bob Jenkins' lookup3 hashlittle(), the checksum libhdf5 puts on its metadata structures.
// Format: HDF5 File Format Specification, "Appendix B: Jenkins' lookup3 Hash Function",
// https://docs.hdfgroup.org/hdf5/develop/_f_m_t3.html
#include "hdf5/checksum.h"

#include <algorithm>

namespace kerchunk::hdf5 {
namespace {

inline uint32_t Rot(uint32_t x, int k) { return (x << k) | (x >> (32 - k)); }

inline void Mix(uint32_t& a, uint32_t& b, uint32_t& c) {
  a -= c;
  a ^= Rot(c, 4);
  c += b;
  b -= a;
  b ^= Rot(a, 6);
  a += c;
  c -= b;
  c ^= Rot(b, 8);
  b += a;
  a -= c;
  a ^= Rot(c, 16);
  c += b;
  b -= a;
  b ^= Rot(a, 19);
  a += c;
  c -= b;
  c ^= Rot(b, 4);
  b += a;
}

inline void Final(uint32_t& a, uint32_t& b, uint32_t& c) {
  c ^= b;
  c -= Rot(b, 14);
  a ^= c;
  a -= Rot(c, 11);
  b ^= a;
  b -= Rot(a, 25);
  c ^= b;
  c -= Rot(b, 16);
  a ^= c;
  a -= Rot(c, 4);
  b ^= a;
  b -= Rot(a, 14);
  c ^= b;
  c -= Rot(b, 24);
}

inline uint32_t Word(const unsigned char* k, size_t n) {
  uint32_t v = 0;
  for (size_t i = 0; i < n; ++i) v |= uint32_t{k[i]} << (8 * i);
  return v;
}

}  // namespace

uint32_t JenkinsLookup3(std::span<const std::byte> data, uint32_t initval) {
  const auto* k = reinterpret_cast<const unsigned char*>(data.data());
  size_t length = data.size();
  uint32_t a = 0xdeadbeef + static_cast<uint32_t>(length) + initval;
  uint32_t b = a, c = a;
  while (length > 12) {
    a += Word(k, 4);
    b += Word(k + 4, 4);
    c += Word(k + 8, 4);
    Mix(a, b, c);
    length -= 12;
    k += 12;
  }
  if (length == 0) return c;
  // The last 1..12 bytes, little-endian, as hashlittle's byte-wise tail.
  a += Word(k, std::min<size_t>(length, 4));
  if (length > 4) b += Word(k + 4, std::min<size_t>(length - 4, 4));
  if (length > 8) c += Word(k + 8, length - 8);
  Final(a, b, c);
  return c;
}

}  // namespace kerchunk::hdf5
