// Where AtomicOutputFile records its temporary file until it is committed or removed, so that a
// signal handler can remove it (RemoveTemporaryOutputs in kerchunk/util/file_io.h).
#pragma once

#include <cstddef>
#include <string>

namespace kerchunk::internal {

/// Longest temporary path recorded (with its terminating NUL); longer ones are not recorded.
inline constexpr size_t kMaxTempPath = 4096;

enum class TempKind {
  kFile,  ///< removed with unlink
  kTree,  ///< a temporary folder, removed with everything in it
};

/// Records `path` and returns its slot, or -1 when the path is too long or every slot is taken
/// (the file is then still removed on every ordinary exit, only not on a signal).
int RegisterTempPath(const std::string& path, TempKind kind = TempKind::kFile);

/// Forgets a slot returned by RegisterTempPath (-1: nothing). Call after the file is renamed
/// or removed: a signal in between then unlinks a name that no longer exists, which is harmless.
void UnregisterTempPath(int slot);

/// Removes the folder `path` and everything in it, not following symbolic links, with system
/// calls only (openat, getdents64, unlinkat), so that a signal handler may call it. Nesting
/// deeper than 32 folders is left in place.
void RemoveTreeSignalSafe(const char* path);

}  // namespace kerchunk::internal
