// A progress bar on stderr for long work, drawn only when stderr is a terminal and not quiet.
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <memory>
#include <mutex>
#include <string>

#include "kerchunk/util/progress.h"

namespace kerchunk {

/// Thread-safe: workers call Advance(); redraws are rate-limited to ~10 per second.
class ProgressBar {
 public:
  /// `label` e.g. "scan"; `total` units of work (files, references). Disabled when `quiet` or
  /// when stderr is not a terminal.
  ProgressBar(std::string label, uint64_t total, bool quiet);
  ~ProgressBar();  // clears the line

  void Advance(uint64_t n = 1);
  bool enabled() const { return enabled_; }

 private:
  void Draw(uint64_t done);
  std::string label_;
  uint64_t total_;
  bool enabled_;
  std::atomic<uint64_t> done_{0};
  std::mutex mutex_;
  std::chrono::steady_clock::time_point start_;
  std::chrono::steady_clock::time_point last_draw_;
};

/// True when stderr is a terminal.
bool StderrIsTerminal();

/// The library's Progress (kerchunk/util/progress.h) drawn as a ProgressBar for each step.
class TerminalProgress : public Progress {
 public:
  explicit TerminalProgress(bool quiet) : quiet_(quiet) {}
  void Start(std::string_view label, uint64_t total) override;
  void Advance(uint64_t n = 1) override { bar_->Advance(n); }
  void Finish() override { bar_.reset(); }

 private:
  bool quiet_;
  std::unique_ptr<ProgressBar> bar_;
};

}  // namespace kerchunk
