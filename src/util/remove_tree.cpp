// `rm -rf` for a signal handler: readdir and nftw may allocate or lock, so the folder is read
// with the getdents64 system call (glibc's wrapper, Linux) into a stack buffer and emptied with
// unlinkat.
#include <dirent.h>
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "util/temp_registry.h"

namespace kerchunk::internal {
namespace {

constexpr int kMaxDepth = 32;

bool IsDotOrDotDot(const char* name) {
  return name[0] == '.' && (name[1] == '\0' || (name[1] == '.' && name[2] == '\0'));
}

bool RemoveEntry(int dir, const char* name, unsigned char type, int depth);
void RemoveContents(int dir, int depth);

// True when the entry is gone. Symbolic links are removed, never followed.
bool RemoveEntry(int dir, const char* name, unsigned char type, int depth) {
  if (type != DT_DIR) {
    if (::unlinkat(dir, name, 0) == 0) return true;
    if (errno != EISDIR && errno != EPERM) return false;  // EPERM: POSIX's "is a folder"
  }
  const int sub = ::openat(dir, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (sub < 0) return false;
  RemoveContents(sub, depth + 1);
  ::close(sub);
  return ::unlinkat(dir, name, AT_REMOVEDIR) == 0;
}

// Removing entries while reading can make the reader skip some, so read again from the start
// until a pass removes nothing.
void RemoveContents(int dir, int depth) {
  if (depth > kMaxDepth) return;
  for (bool removed = true; removed;) {
    removed = false;
    ::lseek(dir, 0, SEEK_SET);
    alignas(dirent64) char buffer[4096];
    for (;;) {
      const ssize_t n = ::getdents64(dir, buffer, sizeof buffer);  // a bare system call
      if (n <= 0) break;
      for (ssize_t at = 0; at < n;) {
        const auto* entry = reinterpret_cast<const dirent64*>(buffer + at);
        if (!IsDotOrDotDot(entry->d_name) &&
            RemoveEntry(dir, entry->d_name, entry->d_type, depth)) {
          removed = true;  // what cannot be removed stays, and does not loop forever
        }
        at += entry->d_reclen;
      }
    }
  }
}

}  // namespace

void RemoveTreeSignalSafe(const char* path) {
  const int dir = ::open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
  if (dir < 0) return;
  RemoveContents(dir, 0);
  ::close(dir);
  ::rmdir(path);
}

}  // namespace kerchunk::internal
