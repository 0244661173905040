// Clearing the superblock status flags of an in-memory file image (h5clear -s), and the Jenkins
// lookup3 checksum that superblock versions 2 and 3 carry.
// Format: HDF5 File Format Specification, "II.A. Superblock" (file consistency flags) and
// "Appendix B: Jenkins' lookup3 Hash Function",
// https://docs.hdfgroup.org/hdf5/develop/_f_m_t3.html#subsec_fmt3_boot_super
#include <cstring>

#include "hdf5/h5_library.h"

namespace kerchunk::hdf5 {
namespace {

constexpr unsigned char kSignature[8] = {0x89, 'H', 'D', 'F', '\r', '\n', 0x1a, '\n'};

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

Result<std::string> ClearSuperblockStatusFlags(std::span<const std::byte> image) {
  for (uint64_t at = 0; at + sizeof(kSignature) <= image.size(); at = at == 0 ? 512 : at * 2) {
    if (std::memcmp(image.data() + at, kSignature, sizeof(kSignature)) != 0) continue;
    std::string copy(reinterpret_cast<const char*>(image.data()), image.size());
    auto* sb = reinterpret_cast<unsigned char*>(copy.data()) + at;
    const uint64_t available = image.size() - at;
    if (available < 12) return DataLossError("truncated superblock at offset {}", at);
    const unsigned version = sb[8];
    if (version <= 1) {
      // Version 0/1: four flag bytes after the B-tree K values; no checksum.
      if (available < 24) return DataLossError("truncated superblock at offset {}", at);
      std::memset(sb + 20, 0, 4);
      return copy;
    }
    const unsigned offset_size = sb[9];
    const uint64_t checked = 12 + 4ull * offset_size;  // bytes covered by the checksum
    if (offset_size == 0 || offset_size > 8 || available < checked + 4) {
      return DataLossError("truncated or invalid version {} superblock at offset {}", version, at);
    }
    sb[11] = 0;
    const uint32_t sum = JenkinsLookup3(std::as_bytes(std::span(sb, checked)));
    for (int i = 0; i < 4; ++i) sb[checked + i] = static_cast<unsigned char>(sum >> (8 * i));
    return copy;
  }
  return DataLossError("no HDF5 superblock signature found");
}

}  // namespace kerchunk::hdf5
