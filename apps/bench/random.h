// Deterministic random numbers for the bench generators: SplitMix64, whose output the code
// fixes (std::*_distribution differ between standard libraries), and cheap enough to draw a
// value for every element of a million chunks.
#pragma once

#include <cstdint>

namespace kerchunk::bench::internal {

class SplitMix64 {
 public:
  explicit SplitMix64(uint64_t seed) : state_(seed) {}

  uint64_t Next() {
    uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
  }
  /// Uniform in [0, 1).
  double Uniform() { return static_cast<double>(Next() >> 11) * 0x1.0p-53; }
  bool Chance(double p) { return Uniform() < p; }
  /// Uniform in [0, n); 0 when n is 0.
  uint64_t Below(uint64_t n) { return n == 0 ? 0 : Next() % n; }
  /// Roughly normal (sum of four uniforms, centred and scaled to unit variance): enough for
  /// noise whose only job is to make compressed sizes vary.
  double Noise() {
    double sum = Uniform() + Uniform() + Uniform() + Uniform();
    return (sum - 2.0) * 1.7320508075688772;  // sqrt(12 / 4)
  }

 private:
  uint64_t state_;
};

/// An independent stream for item `index` of a stream `seed`, so that items can be generated in
/// any order (or in parallel) with the same result.
inline SplitMix64 StreamFor(uint64_t seed, uint64_t index) {
  SplitMix64 mix(seed ^ (index * 0xD6E8FEB86659FD93ull));
  return SplitMix64(mix.Next());
}

}  // namespace kerchunk::bench::internal
