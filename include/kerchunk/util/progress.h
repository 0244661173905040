// How long library work reports its progress. The library draws nothing itself: the commands
// pass a progress bar on the terminal (apps/commands), other callers what they like, or nothing.
#pragma once

#include <cstdint>
#include <string_view>

namespace kerchunk {

/// Receives the progress of one long step. Advance is called from worker threads, so
/// implementations must be thread-safe.
class Progress {
 public:
  virtual ~Progress() = default;
  /// A step named `label` (e.g. "verify --deep") of `total` units (chunks, files) begins.
  virtual void Start(std::string_view label, uint64_t total) = 0;
  /// `n` more units are done.
  virtual void Advance(uint64_t n = 1) = 0;
  /// The step is over.
  virtual void Finish() = 0;
};

}  // namespace kerchunk
