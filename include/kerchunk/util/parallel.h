// Runs independent work items on a few threads, lent by a pool kept for the whole process
// (started when first needed), so that a command pays the start of each thread once.
#pragma once

#include <cstddef>
#include <functional>
#include <string>

#include "kerchunk/util/status.h"

namespace kerchunk {

/// Calls fn(i) for i in [0, n) on up to `threads` threads (0: hardware concurrency), each thread
/// taking the next index when it finishes one, so slow items do not hold up the rest. The
/// calling thread is one of them; a call made inside another's fn gets the pool threads that are
/// idle, if any. fn must be thread-safe; the call returns when every item is done.
void ParallelFor(size_t n, unsigned threads, const std::function<void(size_t)>& fn);

/// Calls consume(produce(i)) for i in [0, n), consume in order of i on the calling thread,
/// produce on up to `threads` other threads (0: hardware concurrency), or on the calling thread
/// when the next item to consume is not claimed by one yet, at most a few items
/// ahead of consume so that memory stays bounded. Output is streamed while the rest is still
/// being produced. The first error of consume is returned and stops the production; produce
/// must be thread-safe.
Status ProduceInOrder(size_t n, unsigned threads, const std::function<std::string(size_t)>& produce,
                      const std::function<Status(std::string&&)>& consume);

/// The thread count for a -j option: `requested`, or the hardware concurrency when 0.
unsigned ResolveThreads(unsigned requested);

}  // namespace kerchunk
