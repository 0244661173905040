// ParallelFor and ProduceInOrder: every item once, consumption in order whatever the threads and
// however unevenly items take, bounded production ahead of the consumer, a consumer's error
// stopping the producers without a hang, pool threads kept between calls, and nested calls
// finishing while the pool's threads are busy.
#include "kerchunk/util/parallel.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cstdlib>
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

// Whether the two items of ParallelFor(2, 2) run at the same time: each waits (up to 10 s) for
// the other to start.
bool TwoItemsRunTogether() {
  std::atomic<int> started{0};
  std::atomic<bool> both_seen[2] = {false, false};
  ParallelFor(2, 2, [&](size_t i) {
    started++;
    const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
    while (started.load() < 2 && std::chrono::steady_clock::now() < deadline) {
      std::this_thread::yield();
    }
    both_seen[i] = started.load() == 2;
  });
  return both_seen[0] && both_seen[1];
}

TEST(ParallelForTest, ItemsRunConcurrently) {
  for (int round = 0; round < 20; ++round) EXPECT_TRUE(TwoItemsRunTogether()) << "round " << round;
}

// Threads are kept between calls, not started for each: 100 calls with 3 threads run on a
// handful of threads (each call started 2 new ones before the pool).
TEST(ParallelForTest, ThreadsAreReusedAcrossCalls) {
  thread_local bool counted = false;
  std::atomic<int> threads_seen{0};
  for (int call = 0; call < 100; ++call) {
    ParallelFor(30, 3, [&](size_t) {
      if (!counted) {
        counted = true;
        threads_seen++;
      }
      std::this_thread::sleep_for(std::chrono::microseconds(20));
    });
  }
  // The caller, plus at most the helpers any test of this file asks for at once (8 producers,
  // or the hardware threads).
  EXPECT_LE(threads_seen.load(), 1 + static_cast<int>(std::max(8u, ResolveThreads(0))));
}

// A child of fork() has none of its parent's pool threads: it must start its own rather than
// wait for threads that are not there.
TEST(ParallelForTest, AForkedChildGetsThreadsOfItsOwn) {
  // The parent's pool gets a thread, and the fork waits until that thread has done its work and
  // sleeps again. A thread forked while it is still starting may hold a lock of the runtime's
  // allocator, which then stays held in the child and stops the child's new threads; this was
  // seen under ASan on a loaded machine (1 run in 60), whereas an idle pool holds no lock.
  ASSERT_TRUE(TwoItemsRunTogether());
  EXPECT_EXIT(std::_Exit(TwoItemsRunTogether() ? 0 : 1), ::testing::ExitedWithCode(0), "");
}

// Work started inside another item's work finishes, whatever the pool threads are doing: the
// caller works through items no helper took.
TEST(ParallelForTest, NestedCallsFinish) {
  for (unsigned threads : {2u, 3u, 7u}) {
    std::vector<std::atomic<int>> calls(40 * 25);
    ParallelFor(40, threads, [&](size_t i) {
      ParallelFor(25, threads, [&](size_t j) { calls[i * 25 + j]++; });
    });
    for (auto& c : calls) EXPECT_EQ(c.load(), 1);
  }
}

TEST(ProduceInOrderTest, FinishesInsideParallelFor) {
  std::vector<std::string> outputs(6);
  ParallelFor(outputs.size(), 3, [&](size_t k) {
    Status s = ProduceInOrder(
        50, 3, [&](size_t i) { return std::to_string(i) + ","; },
        [&](std::string&& text) {
          outputs[k] += text;
          return OkStatus();
        });
    EXPECT_TRUE(s.ok()) << s.message();
  });
  std::string expected;
  for (int i = 0; i < 50; ++i) expected += std::to_string(i) + ",";
  for (const std::string& out : outputs) EXPECT_EQ(out, expected);
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
