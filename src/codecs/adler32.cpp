#include "codecs/adler32.h"

#include <zlib.h>

#include <algorithm>
#include <cstddef>

#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
#include <immintrin.h>
#define KERCHUNK_ADLER32_AVX2 1
#endif

namespace kerchunk::codecs::internal {
namespace {

constexpr uint32_t kModulus = 65521;  // the largest prime below 2^16
// zlib's NMAX: the most bytes whose sums cannot overflow 32 bits before reduction, i.e. the
// largest n with 255 n (n + 1) / 2 + (n + 1) (kModulus - 1) < 2^32.
constexpr size_t kMaxBlock = 5552;

uint32_t ZlibAdler32(uint32_t adler, std::string_view data) {
  return static_cast<uint32_t>(
      adler32_z(adler, reinterpret_cast<const Bytef*>(data.data()), data.size()));
}

#ifdef KERCHUNK_ADLER32_AVX2
constexpr size_t kStep = 32;
// A block that is a whole number of steps and still within zlib's bound.
constexpr size_t kVectorBlock = kMaxBlock / kStep * kStep;

// Sums of the 8 32-bit lanes.
__attribute__((target("avx2"))) uint32_t LaneSum(__m256i v) {
  __m128i s = _mm_add_epi32(_mm256_castsi256_si128(v), _mm256_extracti128_si256(v, 1));
  s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0x4E));
  s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0xB1));
  return static_cast<uint32_t>(_mm_cvtsi128_si32(s));
}

// Over each step of 32 bytes b[0..31], with s1 and s2 the running sums before it:
//   s2 += 32 s1 + sum (32 - i) b[i],   s1 += sum b[i].
// The products (32 - i) b[i] come from one multiply-add of byte pairs; the 32 s1 terms are
// kept as a sum of the s1 values seen before each step (`prefix`) and multiplied once at the
// end of the block.
__attribute__((target("avx2"))) uint32_t Avx2Adler32(uint32_t adler, const unsigned char* p,
                                                     size_t n) {
  uint32_t s1 = adler & 0xFFFF;
  uint32_t s2 = adler >> 16;
  const __m256i weights =
      _mm256_setr_epi8(32, 31, 30, 29, 28, 27, 26, 25, 24, 23, 22, 21, 20, 19, 18, 17, 16, 15, 14,
                       13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1);
  const __m256i ones16 = _mm256_set1_epi16(1);
  const __m256i zero = _mm256_setzero_si256();
  while (n >= kStep) {
    size_t block = std::min(n, kVectorBlock) / kStep * kStep;
    n -= block;
    __m256i v1 = zero, v2 = zero, prefix = zero;
    for (size_t i = 0; i < block; i += kStep) {
      __m256i bytes = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(p + i));
      prefix = _mm256_add_epi32(prefix, v1);
      v1 = _mm256_add_epi32(v1, _mm256_sad_epu8(bytes, zero));
      __m256i pairs = _mm256_maddubs_epi16(bytes, weights);
      v2 = _mm256_add_epi32(v2, _mm256_madd_epi16(pairs, ones16));
    }
    p += block;
    v2 = _mm256_add_epi32(v2, _mm256_slli_epi32(prefix, 5));
    s2 += s1 * static_cast<uint32_t>(block) + LaneSum(v2);
    s1 += LaneSum(v1);
    s1 %= kModulus;
    s2 %= kModulus;
  }
  return ZlibAdler32((s2 << 16) | s1, {reinterpret_cast<const char*>(p), n});
}

bool HasAvx2() {
  static const bool has = __builtin_cpu_supports("avx2");
  return has;
}
#endif

}  // namespace

uint32_t Adler32(uint32_t adler, std::string_view data) {
#ifdef KERCHUNK_ADLER32_AVX2
  // Short inputs are not worth the vector set-up.
  if (data.size() >= 256 && HasAvx2()) {
    return Avx2Adler32(adler, reinterpret_cast<const unsigned char*>(data.data()), data.size());
  }
#endif
  return ZlibAdler32(adler, data);
}

}  // namespace kerchunk::codecs::internal
