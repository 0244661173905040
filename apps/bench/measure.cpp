#include "kerchunk/bench/measure.h"

#include <time.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>

namespace kerchunk::bench {
namespace {

// A "Name:   1234 kB" line of /proc/self/status, in bytes.
uint64_t StatusFieldBytes(const char* field) {
  std::ifstream status("/proc/self/status");
  std::string line;
  const size_t field_length = std::strlen(field);
  while (std::getline(status, line)) {
    if (line.compare(0, field_length, field) == 0 && line.size() > field_length &&
        line[field_length] == ':') {
      return std::stoull(line.substr(field_length + 1)) * 1024;
    }
  }
  return 0;
}

}  // namespace

uint64_t CurrentRssBytes() { return StatusFieldBytes("VmRSS"); }

uint64_t PeakRssBytes() { return StatusFieldBytes("VmHWM"); }

bool ResetPeakRss() {
  FILE* file = std::fopen("/proc/self/clear_refs", "w");
  if (file == nullptr) return false;
  bool ok = std::fputs("5", file) >= 0;
  ok = std::fclose(file) == 0 && ok;
  return ok;
}

double ProcessCpuSeconds() {
  // The scheduler's precise account of every thread, unlike getrusage's tick samples.
  timespec t{};
  if (::clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t) != 0) return 0;
  return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_nsec) * 1e-9;
}

StepMeter::StepMeter() {
  reset_ok_ = ResetPeakRss();
  start_rss_ = CurrentRssBytes();
  start_cpu_ = ProcessCpuSeconds();
  start_ = std::chrono::steady_clock::now();  // last, so the bookkeeping is not timed
}

void StepMeter::Stop() {
  if (stopped_) return;
  seconds_ = std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count();
  cpu_seconds_ = ProcessCpuSeconds() - start_cpu_;
  peak_rss_ = std::max(PeakRssBytes(), start_rss_);
  stopped_ = true;
}

double Median(std::vector<double> values) {
  if (values.empty()) return 0;
  const size_t mid = values.size() / 2;
  std::nth_element(values.begin(), values.begin() + mid, values.end());
  if (values.size() % 2 == 1) return values[mid];
  const double upper = values[mid];
  const double lower = *std::max_element(values.begin(), values.begin() + mid);
  return (lower + upper) / 2;
}

double Percentile(std::vector<double> values, double p) {
  if (values.empty()) return 0;
  const double n = static_cast<double>(values.size());
  size_t rank = static_cast<size_t>(std::ceil(std::clamp(p, 0.0, 100.0) / 100.0 * n));
  size_t index = rank == 0 ? 0 : rank - 1;
  std::nth_element(values.begin(), values.begin() + index, values.end());
  return values[index];
}

}  // namespace kerchunk::bench
