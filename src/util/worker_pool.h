// Threads kept for the whole process and lent to ParallelFor and ProduceInOrder.
//
// Starting and joining a thread costs 50-70 µs on the 2-core VMs we measure on, plus a fresh
// malloc arena that it then fills. A scan of several files starts work on threads 7-9 times
// (the scan, combine's steps, the JSON writer), so a scan of 5 small files took longer at -j 2
// than at -j 1 (1.8 against 1.3 ms). Pool threads are started once, when first needed, and wait
// for work afterwards.
#pragma once

#include <functional>
#include <memory>

namespace kerchunk::internal {

struct PoolOffer;  // what a LentThreads offers the pool

/// While this object lives, offers `work` to up to `helpers` pool threads, each of which calls
/// it once. The pool grows to `helpers` threads when it has fewer; threads busy with other work
/// (an enclosing ParallelFor) do not join, so the work must not rely on any helper joining: the
/// lender does the work itself too, and `work` returns once nothing is left to claim. The
/// destructor stops the offer and waits for the threads that took it.
class LentThreads {
 public:
  LentThreads(unsigned helpers, const std::function<void()>& work);
  ~LentThreads();
  LentThreads(const LentThreads&) = delete;
  LentThreads& operator=(const LentThreads&) = delete;

 private:
  std::unique_ptr<PoolOffer> offer_;
};

}  // namespace kerchunk::internal
