// The temporary files of uncommitted AtomicOutputFiles, kept where a signal handler can read
// them: a fixed array of slots, each a state word and a path buffer. No allocation, no lock:
// a handler may interrupt any thread at any point, even one inside malloc or holding a mutex.
#include "util/temp_registry.h"

#include <signal.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <cstring>

#include "kerchunk/util/file_io.h"

namespace kerchunk::internal {
namespace {

enum SlotState : int { kFree = 0, kFilling = 1, kLiveFile = 2, kLiveTree = 3 };

struct Slot {
  std::atomic<int> state{kFree};
  char path[kMaxTempPath];
};

// Enough for every output a command has open at once (one; bench a few); a file that finds no
// slot is still removed on every ordinary exit, only not on a signal.
std::array<Slot, 64> slots;

static_assert(std::atomic<int>::is_always_lock_free, "read from a signal handler");

void OnTerminatingSignal(int signal) {
  RemoveTemporaryOutputs();
  // End as the signal would have: the parent (a shell, Slurm) sees "killed by SIGTERM", which
  // a shell reports as exit status 128 + signal. The signal is blocked while its handler runs,
  // so it is delivered when this returns.
  struct sigaction action {};
  action.sa_handler = SIG_DFL;
  ::sigemptyset(&action.sa_mask);
  ::sigaction(signal, &action, nullptr);
  ::raise(signal);
}

}  // namespace

int RegisterTempPath(const std::string& path, TempKind kind) {
  if (path.size() >= kMaxTempPath) return -1;
  for (size_t i = 0; i < slots.size(); ++i) {
    int expected = kFree;
    if (slots[i].state.compare_exchange_strong(expected, kFilling, std::memory_order_acquire)) {
      std::memcpy(slots[i].path, path.c_str(), path.size() + 1);
      slots[i].state.store(kind == TempKind::kTree ? kLiveTree : kLiveFile,
                           std::memory_order_release);
      return static_cast<int>(i);
    }
  }
  return -1;
}

void UnregisterTempPath(int slot) {
  if (slot < 0) return;
  slots[static_cast<size_t>(slot)].state.store(kFree, std::memory_order_release);
}

}  // namespace kerchunk::internal

namespace kerchunk {

void RemoveTemporaryOutputs() {
  for (internal::Slot& slot : internal::slots) {
    const int state = slot.state.load(std::memory_order_acquire);
    if (state == internal::kLiveFile) ::unlink(slot.path);
    if (state == internal::kLiveTree) internal::RemoveTreeSignalSafe(slot.path);
  }
}

void RemoveTemporaryOutputsOnSignals() {
  for (int signal : {SIGINT, SIGTERM, SIGHUP}) {
    struct sigaction old {};
    if (::sigaction(signal, nullptr, &old) != 0) continue;
    if (old.sa_handler == SIG_IGN) continue;  // nohup, or a shell's background job: keep it so
    struct sigaction action {};
    action.sa_handler = internal::OnTerminatingSignal;
    ::sigemptyset(&action.sa_mask);
    ::sigaction(signal, &action, nullptr);
  }
}

}  // namespace kerchunk
