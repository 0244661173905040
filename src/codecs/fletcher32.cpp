#include "kerchunk/codecs/fletcher32.h"

#include <algorithm>

namespace kerchunk::codecs {
namespace {

// Folds a running sum back below 2^16 + small, keeping it congruent modulo 65535.
uint32_t Fold(uint32_t sum) { return (sum & 0xFFFF) + (sum >> 16); }

// The byte-pair swap of checksums written by HDF5 before 1.6.3 on little-endian hosts.
uint32_t PairSwapped(uint32_t v) { return ((v & 0x00FF00FFu) << 8) | ((v >> 8) & 0x00FF00FFu); }

}  // namespace

uint32_t Fletcher32(std::string_view data) {
  const auto* p = reinterpret_cast<const unsigned char*>(data.data());
  uint64_t words = data.size() / 2;
  uint32_t sum1 = 0, sum2 = 0;
  // 360 words is the most that can be summed before sum2 could overflow 32 bits.
  while (words > 0) {
    uint64_t block = std::min<uint64_t>(words, 360);
    words -= block;
    for (uint64_t i = 0; i < block; ++i, p += 2) {
      sum1 += (uint32_t{p[0]} << 8) | p[1];
      sum2 += sum1;
    }
    sum1 = Fold(sum1);
    sum2 = Fold(sum2);
  }
  if (data.size() % 2 != 0) {
    sum1 += uint32_t{*p} << 8;
    sum2 += sum1;
    sum1 = Fold(sum1);
    sum2 = Fold(sum2);
  }
  sum1 = Fold(sum1);
  sum2 = Fold(sum2);
  return (sum2 << 16) | sum1;
}

Status VerifyFletcher32(std::string_view stored) {
  if (stored.size() < kFletcher32Bytes) {
    return DataLossError("fletcher32: {} bytes cannot hold the 4-byte checksum", stored.size());
  }
  std::string_view payload = stored.substr(0, stored.size() - kFletcher32Bytes);
  const auto* c = reinterpret_cast<const unsigned char*>(stored.data() + payload.size());
  uint32_t expected = uint32_t{c[0]} | uint32_t{c[1]} << 8 | uint32_t{c[2]} << 16 |
                      uint32_t{c[3]} << 24;  // HDF5's UINT32ENCODE is little-endian
  uint32_t actual = Fletcher32(payload);
  if (expected != actual && expected != PairSwapped(actual)) {
    return DataLossError("fletcher32: stored checksum {:08x}, computed {:08x} over {} bytes",
                         expected, actual, payload.size());
  }
  return OkStatus();
}

}  // namespace kerchunk::codecs
