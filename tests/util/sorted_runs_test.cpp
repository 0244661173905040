// SortByMergingRuns sorts like std::stable_sort whatever the input: a few long runs (overlapping
// parts), one run (already sorted), many short runs (the sort it falls back to), equal keys.
#include "util/sorted_runs.h"

#include <gtest/gtest.h>

#include <random>
#include <utility>
#include <vector>

namespace kerchunk::internal {
namespace {

using Element = std::pair<int, int>;  // (key, original position): stability is visible

bool KeyLess(const Element& a, const Element& b) { return a.first < b.first; }

// `runs` increasing runs of random lengths and starts, keys from a small range so that equal
// keys occur within and across runs.
std::vector<Element> Runs(std::mt19937_64& rng, int runs) {
  std::vector<Element> v;
  for (int r = 0; r < runs; ++r) {
    int key = static_cast<int>(rng() % 50);
    const int length = static_cast<int>(rng() % 40);
    for (int k = 0; k < length; ++k) {
      key += static_cast<int>(rng() % 3);  // steps of 0 repeat a key within the run
      v.push_back({key, static_cast<int>(v.size())});
    }
  }
  return v;
}

TEST(SortByMergingRunsTest, SortsStablyLikeStableSort) {
  std::mt19937_64 rng(3);
  for (int runs : {0, 1, 2, 3, 7, 13, 64, 65, 300}) {
    for (int trial = 0; trial < 30; ++trial) {
      std::vector<Element> v = Runs(rng, runs);
      std::vector<Element> expected = v;
      std::stable_sort(expected.begin(), expected.end(), KeyLess);
      SortByMergingRuns(v, KeyLess);
      ASSERT_EQ(v, expected) << runs << " runs, trial " << trial;
    }
  }
}

TEST(SortByMergingRunsTest, RandomOrderAndSortedInput) {
  std::mt19937_64 rng(4);
  for (size_t n : {1u, 2u, 100u, 5000u}) {
    std::vector<Element> v;
    for (size_t i = 0; i < n; ++i)
      v.push_back({static_cast<int>(rng() % 1000), static_cast<int>(i)});
    std::vector<Element> expected = v;
    std::stable_sort(expected.begin(), expected.end(), KeyLess);
    SortByMergingRuns(v, KeyLess);
    EXPECT_EQ(v, expected) << n;
    SortByMergingRuns(v, KeyLess);  // sorted input: one run, left as it is
    EXPECT_EQ(v, expected) << n;
  }
}

}  // namespace
}  // namespace kerchunk::internal
