#include "kerchunk/util/parallel.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "worker_pool.h"

namespace kerchunk {

unsigned ResolveThreads(unsigned requested) {
  if (requested > 0) return requested;
  return std::max(1u, std::thread::hardware_concurrency());
}

void ParallelFor(size_t n, unsigned threads, const std::function<void(size_t)>& fn) {
  threads = static_cast<unsigned>(std::min<size_t>(ResolveThreads(threads), n));
  if (threads <= 1) {
    for (size_t i = 0; i < n; ++i) fn(i);
    return;
  }
  std::atomic<size_t> next{0};
  const std::function<void()> take_items = [&] {
    for (size_t i = next.fetch_add(1); i < n; i = next.fetch_add(1)) fn(i);
  };
  internal::LentThreads helpers(threads - 1, take_items);
  take_items();
}  // waits for the helpers' last items

namespace {

// The state ProduceInOrder's producers and its consumer share.
class OrderedSlots {
 public:
  OrderedSlots(size_t n, size_t window) : slots_(n), window_(window) {}

  // The next index to produce, once it is within the window; nullopt when none is left or
  // production stopped.
  std::optional<size_t> Claim() {
    std::unique_lock lock(mutex_);
    changed_.wait(lock,
                  [&] { return stop_ || next_ >= slots_.size() || next_ < taken_ + window_; });
    if (stop_ || next_ >= slots_.size()) return std::nullopt;
    return next_++;
  }
  void Put(size_t i, std::string text) {
    std::lock_guard lock(mutex_);
    slots_[i] = std::move(text);
    changed_.notify_all();
  }
  // Item `i` once produced (items are taken in order). When no producer has claimed it yet,
  // the caller produces it: producers are pool threads, which may all be busy elsewhere.
  std::string Take(size_t i, const std::function<std::string(size_t)>& produce) {
    std::unique_lock lock(mutex_);
    if (next_ == i) {
      ++next_;
      lock.unlock();
      std::string text = produce(i);
      lock.lock();
      taken_ = i + 1;
      changed_.notify_all();
      return text;
    }
    changed_.wait(lock, [&] { return slots_[i].has_value(); });
    std::string text = std::move(*slots_[i]);
    slots_[i].reset();
    taken_ = i + 1;
    changed_.notify_all();
    return text;
  }
  void Stop() {
    std::lock_guard lock(mutex_);
    stop_ = true;
    changed_.notify_all();
  }

 private:
  std::mutex mutex_;
  std::condition_variable changed_;
  std::vector<std::optional<std::string>> slots_;
  const size_t window_;
  size_t next_ = 0;   // next index to claim
  size_t taken_ = 0;  // items consumed so far
  bool stop_ = false;
};

}  // namespace

Status ProduceInOrder(size_t n, unsigned threads, const std::function<std::string(size_t)>& produce,
                      const std::function<Status(std::string&&)>& consume) {
  threads = static_cast<unsigned>(std::min<size_t>(ResolveThreads(threads), n));
  if (threads <= 1) {
    for (size_t i = 0; i < n; ++i) KERCHUNK_RETURN_IF_ERROR(consume(produce(i)));
    return OkStatus();
  }
  // Two items a thread: a producer never waits for the consumer while it has work.
  OrderedSlots slots(n, 2 * size_t{threads});
  const std::function<void()> produce_items = [&] {
    while (std::optional<size_t> i = slots.Claim()) slots.Put(*i, produce(*i));
  };
  Status status = OkStatus();
  {
    internal::LentThreads producers(threads, produce_items);
    for (size_t i = 0; i < n && status.ok(); ++i) status = consume(slots.Take(i, produce));
    slots.Stop();  // after an error; after the last item there is nothing left to claim anyway
  }                // waits for the producers
  return status;
}

}  // namespace kerchunk
