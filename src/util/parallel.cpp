#include "kerchunk/util/parallel.h"

#include <algorithm>
#include <atomic>
#include <thread>
#include <vector>

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
  auto worker = [&] {
    for (size_t i = next.fetch_add(1); i < n; i = next.fetch_add(1)) fn(i);
  };
  std::vector<std::jthread> pool;
  pool.reserve(threads - 1);
  for (unsigned t = 1; t < threads; ++t) pool.emplace_back(worker);
  worker();
}

}  // namespace kerchunk
