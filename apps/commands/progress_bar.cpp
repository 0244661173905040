#include "kerchunk/commands/progress_bar.h"

#include <fmt/format.h>
#include <unistd.h>

#include <cstdio>

namespace kerchunk {

bool StderrIsTerminal() { return ::isatty(STDERR_FILENO) == 1; }

ProgressBar::ProgressBar(std::string label, uint64_t total, bool quiet)
    : label_(std::move(label)), total_(total), enabled_(!quiet && StderrIsTerminal()) {
  start_ = last_draw_ = std::chrono::steady_clock::now();
}

ProgressBar::~ProgressBar() {
  if (enabled_) fmt::print(stderr, "\r\033[K");
}

void ProgressBar::Advance(uint64_t n) {
  uint64_t done = done_.fetch_add(n) + n;
  if (!enabled_) return;
  auto now = std::chrono::steady_clock::now();
  std::unique_lock lock(mutex_, std::try_to_lock);
  if (!lock.owns_lock()) return;
  if (now - last_draw_ < std::chrono::milliseconds(100) && done < total_) return;
  last_draw_ = now;
  Draw(done);
}

void TerminalProgress::Start(std::string_view label, uint64_t total) {
  bar_ = std::make_unique<ProgressBar>(std::string(label), total, quiet_);
}

void ProgressBar::Draw(uint64_t done) {
  constexpr int kWidth = 30;
  double fraction = total_ ? static_cast<double>(done) / static_cast<double>(total_) : 1.0;
  if (fraction > 1) fraction = 1;
  int filled = static_cast<int>(fraction * kWidth);
  double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  std::string bar(filled, '#');
  bar.append(kWidth - filled, '.');
  fmt::print(stderr, "\r{} [{}] {}/{} {:.0f}% {:.1f}s", label_, bar, done, total_, fraction * 100,
             seconds);
  std::fflush(stderr);
}

}  // namespace kerchunk
