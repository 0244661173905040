// Runs independent work items on a few threads.
#pragma once

#include <cstddef>
#include <functional>

namespace kerchunk {

/// Calls fn(i) for i in [0, n) on up to `threads` threads (0: hardware concurrency), each thread
/// taking the next index when it finishes one, so slow items do not hold up the rest. fn must
/// be thread-safe; the call returns when every item is done.
void ParallelFor(size_t n, unsigned threads, const std::function<void(size_t)>& fn);

/// The thread count for a -j option: `requested`, or the hardware concurrency when 0.
unsigned ResolveThreads(unsigned requested);

}  // namespace kerchunk
