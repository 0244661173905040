// ExactDivisor against the division operators: the same answer for every divisor shape (1,
// powers of two, odd, even with an odd part, the largest values) on exact multiples, on
// neighbours of multiples and on random numbers.
#include "kerchunk/util/checked_math.h"

#include <gtest/gtest.h>

#include <limits>
#include <optional>
#include <random>
#include <vector>

namespace kerchunk {
namespace {

std::optional<uint64_t> Reference(uint64_t x, uint64_t d) {
  if (x % d != 0) return std::nullopt;
  return x / d;
}

TEST(ExactDivisorTest, AgreesWithDivisionOperators) {
  constexpr uint64_t kMax = std::numeric_limits<uint64_t>::max();
  std::vector<uint64_t> divisors = {1,        2,   3,   5,       7,          8,        10,
                                    12,       100, 365, 1 << 20, 3ull << 40, kMax / 2, kMax / 2 + 1,
                                    kMax - 1, kMax};
  std::mt19937_64 random(17);
  for (int i = 0; i < 200; ++i) {
    divisors.push_back(random() >> (random() % 64));
    divisors.back() |= 1u << (random() % 3);  // never 0
  }
  for (uint64_t d : divisors) {
    const ExactDivisor divisor(d);
    std::vector<uint64_t> xs = {0, 1, d - 1, d, d + 1, kMax, kMax - 1};
    for (int i = 0; i < 300; ++i) {
      const uint64_t most = kMax / d;  // the largest quotient
      const uint64_t q = most == kMax ? random() : random() % (most + 1);
      xs.push_back(q * d);      // a multiple
      xs.push_back(q * d + 1);  // its neighbours (wrapping is fine: any number will do)
      xs.push_back(q * d - 1);
      xs.push_back(random());
    }
    for (uint64_t x : xs) {
      ASSERT_EQ(divisor.Divide(x), Reference(x, d)) << x << " / " << d;
    }
  }
}

}  // namespace
}  // namespace kerchunk
