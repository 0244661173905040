// The machine a benchmark ran on, printed with every result: figures without it mean little.
#pragma once

#include <cstdint>
#include <string>

namespace kerchunk::bench {

struct MachineInfo {
  std::string cpu;            ///< model name from /proc/cpuinfo ("unknown" if absent)
  unsigned cores = 0;         ///< hardware threads available to this process
  uint64_t memory_bytes = 0;  ///< total RAM
  std::string kernel;         ///< "Linux 6.1.0"
  std::string load_average;   ///< 1-minute load average when the run started (noise indicator)
  std::string compiler;       ///< compiler and build type of this program
};

/// Reads /proc/cpuinfo, sysinfo(2), uname(2) and /proc/loadavg.
MachineInfo DescribeMachine();

/// "AMD EPYC, 2 cores, 23.4 GiB, Linux 6.1.0, GCC 12.2.0 (load 1.05)".
std::string MachineSummary(const MachineInfo& machine);

}  // namespace kerchunk::bench
