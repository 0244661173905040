// Measuring one step of a benchmark: wall time and the peak resident memory while it ran.
//
// Peak memory per step: Linux keeps the process's peak resident set size (VmHWM in
// /proc/self/status) and resets it to the current size when "5" is written to
// /proc/self/clear_refs (Linux >= 4.0). A step therefore starts with a reset and ends by reading
// VmHWM, which gives the peak during that step alone, including what was resident before it
// (the inputs it works on). Where the reset is refused the meter says so, and the figure is
// the process's peak so far.
#pragma once

#include <chrono>
#include <cstdint>
#include <span>
#include <vector>

namespace kerchunk::bench {

/// Resident memory of this process from /proc/self/status, in bytes (0 when unreadable).
uint64_t CurrentRssBytes();
/// Peak resident memory (VmHWM) since the process started or since the last reset.
uint64_t PeakRssBytes();
/// Resets VmHWM to the current resident size; false when the kernel refuses.
bool ResetPeakRss();
/// CPU time (user + system) of every thread of this process so far, in seconds.
double ProcessCpuSeconds();

/// Times one step (wall clock, and CPU time of the whole process: more than the wall time when
/// the step runs threads, and less disturbed by other processes) and records its memory:
/// construct just before the step, call Stop() right after it.
class StepMeter {
 public:
  StepMeter();
  /// Stops the clock and reads the peak; later calls return the first measurement.
  void Stop();
  double seconds() const { return seconds_; }
  double cpu_seconds() const { return cpu_seconds_; }
  uint64_t start_rss_bytes() const { return start_rss_; }
  uint64_t peak_rss_bytes() const { return peak_rss_; }
  /// False when the peak could not be reset, so peak_rss_bytes() is the process's peak so far.
  bool per_step_peak() const { return reset_ok_; }

 private:
  std::chrono::steady_clock::time_point start_;
  double start_cpu_ = 0;
  double cpu_seconds_ = 0;
  bool stopped_ = false;
  bool reset_ok_ = false;
  uint64_t start_rss_ = 0;
  uint64_t peak_rss_ = 0;
  double seconds_ = 0;
};

/// The median of `values` (the mean of the middle two for an even count; 0 when empty).
double Median(std::vector<double> values);
/// The p-th percentile (0 <= p <= 100) by the nearest-rank method: the smallest value with at
/// least p% of the values at or below it (0 when empty).
double Percentile(std::vector<double> values, double p);

}  // namespace kerchunk::bench
