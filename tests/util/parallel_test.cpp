// ParallelFor and ProduceInOrder: every item once, consumption in order whatever the threads and
// however unevenly items take, bounded production ahead of the consumer, and a consumer's error
// stopping the producers without a hang.
#include "kerchunk/util/parallel.h"

#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <random>
#include <thread>
#include <vector>

namespace kerchunk {
namespace {

TEST(ParallelForTest, CallsEveryIndexOnce) {
  for (unsigned threads : {0u, 1u, 2u, 7u}) {
    std::vector<std::atomic<int>> calls(1000);
    ParallelFor(calls.size(), threads, [&](size_t i) { calls[i]++; });
    for (auto& c : calls) EXPECT_EQ(c.load(), 1);
  }
}

TEST(ProduceInOrderTest, ConsumesInOrderWhateverTheDurations) {
  for (unsigned threads : {1u, 2u, 3u, 8u}) {
    for (size_t n : {0, 1, 2, 5, 200}) {
      std::vector<int> produced(n, 0);
      std::vector<size_t> consumed;
      Status s = ProduceInOrder(
          n, threads,
          [&](size_t i) {
            // Items of uneven cost, so later ones often finish first.
            std::this_thread::sleep_for(std::chrono::microseconds((i * 7919) % 300));
            produced[i]++;
            return std::to_string(i);
          },
          [&](std::string&& text) {
            consumed.push_back(std::stoul(text));
            return OkStatus();
          });
      ASSERT_TRUE(s.ok()) << s.message();
      ASSERT_EQ(consumed.size(), n);
      for (size_t i = 0; i < n; ++i) {
        EXPECT_EQ(consumed[i], i);
        EXPECT_EQ(produced[i], 1);
      }
    }
  }
}

TEST(ProduceInOrderTest, ProductionStaysAFewItemsAhead) {
  const unsigned threads = 3;
  std::atomic<size_t> started{0};
  size_t consumed = 0, most_ahead = 0;
  Status s = ProduceInOrder(
      100, threads,
      [&](size_t i) {
        started++;
        return std::to_string(i);
      },
      [&](std::string&&) {
        // A slow consumer: producers must wait for it rather than run through all items.
        std::this_thread::sleep_for(std::chrono::microseconds(200));
        ++consumed;
        most_ahead = std::max(most_ahead, started.load() - consumed);
        return OkStatus();
      });
  ASSERT_TRUE(s.ok());
  EXPECT_LE(most_ahead, 2 * threads);
}

TEST(ProduceInOrderTest, ConsumersErrorStopsProduction) {
  for (unsigned threads : {1u, 2u, 8u}) {
    std::atomic<size_t> produced{0};
    size_t consumed = 0;
    Status s = ProduceInOrder(
        10000, threads,
        [&](size_t i) {
          produced++;
          return std::to_string(i);
        },
        [&](std::string&&) { return ++consumed == 3 ? IoError("no space") : OkStatus(); });
    EXPECT_EQ(s.code(), StatusCode::kIoError);
    EXPECT_EQ(consumed, 3u);
    EXPECT_LE(produced.load(), 3 + 2 * threads);
  }
}

}  // namespace
}  // namespace kerchunk
