#include "worker_pool.h"

#include <pthread.h>

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <deque>
#include <mutex>
#include <thread>
#include <vector>

namespace kerchunk::internal {

struct PoolOffer {
  const std::function<void()>* work;
  const bool posted;     // helpers were asked for
  unsigned wanted;       // helpers still to take it; the offer leaves the queue at 0
  unsigned running = 0;  // helpers inside work
};

namespace {

class WorkerPool;
std::atomic<WorkerPool*> shared_pool{nullptr};

class WorkerPool {
 public:
  // Never destroyed: at exit its threads are asleep in Serve, and joining them from a static
  // destructor would hang when exit is called from one of them.
  static WorkerPool& Shared() {
    static std::once_flag created;
    std::call_once(created, [] {
      shared_pool.store(new WorkerPool);
      // A child of fork() has only the thread that forked: the parent's pool threads are not
      // there (and a lock one of them held stays held), so the child gets a pool of its own.
      // The parent's is left behind: destroying threads the child does not have would abort.
      ::pthread_atfork(nullptr, nullptr, [] { shared_pool.store(new WorkerPool); });
    });
    return *shared_pool.load();
  }

  void Post(PoolOffer& offer) {
    std::lock_guard lock(mutex_);
    offers_.push_back(&offer);
    // The pool grows to the largest number of helpers asked for at once, no further: nested
    // work finds the threads busy and runs on its lender, so -j bounds the threads working.
    while (threads_.size() < offer.wanted) threads_.emplace_back([this] { Serve(); });
    for (unsigned i = 0; i < offer.wanted; ++i) offered_.notify_one();
  }

  void Withdraw(PoolOffer& offer) {
    std::unique_lock lock(mutex_);
    auto it = std::find(offers_.begin(), offers_.end(), &offer);
    if (it != offers_.end()) offers_.erase(it);
    returned_.wait(lock, [&] { return offer.running == 0; });
  }

 private:
  void Serve() {
    std::unique_lock lock(mutex_);
    for (;;) {
      offered_.wait(lock, [&] { return !offers_.empty(); });
      PoolOffer& offer = *offers_.front();
      if (--offer.wanted == 0) offers_.pop_front();
      ++offer.running;
      lock.unlock();
      (*offer.work)();
      lock.lock();
      if (--offer.running == 0) returned_.notify_all();
    }
  }

  std::mutex mutex_;
  std::condition_variable offered_;   // an offer was posted
  std::condition_variable returned_;  // a helper returned from an offer's work
  std::deque<PoolOffer*> offers_;
  std::vector<std::thread> threads_;  // detached in effect: the pool is never destroyed
};

}  // namespace

LentThreads::LentThreads(unsigned helpers, const std::function<void()>& work)
    : offer_(std::make_unique<PoolOffer>(PoolOffer{&work, helpers > 0, helpers})) {
  if (helpers > 0) WorkerPool::Shared().Post(*offer_);
}

LentThreads::~LentThreads() {
  if (offer_->posted) WorkerPool::Shared().Withdraw(*offer_);
}

}  // namespace kerchunk::internal
