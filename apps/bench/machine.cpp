#include "kerchunk/bench/machine.h"

#include <fmt/format.h>
#include <sys/sysinfo.h>
#include <sys/utsname.h>

#include <fstream>
#include <thread>

namespace kerchunk::bench {
namespace {

std::string CpuModel() {
  std::ifstream cpuinfo("/proc/cpuinfo");
  std::string line;
  while (std::getline(cpuinfo, line)) {
    if (line.rfind("model name", 0) == 0) {
      size_t colon = line.find(':');
      if (colon != std::string::npos && colon + 2 <= line.size()) return line.substr(colon + 2);
    }
  }
  return "unknown";
}

std::string Compiler() {
#if defined(__clang__)
  std::string name =
      fmt::format("Clang {}.{}.{}", __clang_major__, __clang_minor__, __clang_patchlevel__);
#elif defined(__GNUC__)
  std::string name = fmt::format("GCC {}.{}.{}", __GNUC__, __GNUC_MINOR__, __GNUC_PATCHLEVEL__);
#else
  std::string name = "unknown compiler";
#endif
#if defined(NDEBUG)
  return name + ", NDEBUG build";
#else
  return name + ", assertions on (not a release build)";
#endif
}

}  // namespace

MachineInfo DescribeMachine() {
  MachineInfo m;
  m.cpu = CpuModel();
  m.cores = std::thread::hardware_concurrency();
  struct sysinfo info;
  if (sysinfo(&info) == 0) m.memory_bytes = uint64_t{info.totalram} * info.mem_unit;
  struct utsname names;
  if (uname(&names) == 0) m.kernel = fmt::format("{} {}", names.sysname, names.release);
  std::ifstream loadavg("/proc/loadavg");
  loadavg >> m.load_average;
  m.compiler = Compiler();
  return m;
}

std::string MachineSummary(const MachineInfo& m) {
  return fmt::format("{}, {} cores, {:.1f} GiB, {}, {} (load {} at start)", m.cpu, m.cores,
                     static_cast<double>(m.memory_bytes) / (1ull << 30), m.kernel, m.compiler,
                     m.load_average.empty() ? "?" : m.load_average);
}

}  // namespace kerchunk::bench
