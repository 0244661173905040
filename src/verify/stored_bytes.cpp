#include "verify/stored_bytes.h"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstring>

namespace kerchunk::verify::internal {

FileReader::Descriptor::~Descriptor() { ::close(fd); }

Result<std::shared_ptr<const FileReader::Descriptor>> FileReader::Open(uint32_t url) {
  std::lock_guard lock(mutex_);
  if (open_[url]) {
    recent_.remove(url);
    recent_.push_front(url);
    return open_[url];
  }
  const ResolvedFile& f = files_.by_url[url];
  if (!f.local()) return IoError("{}: {}", url, f.reason);
  const int fd = ::open(f.path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return IoError("cannot open {}: {}", f.path, std::strerror(errno));
  open_[url] = std::make_shared<const Descriptor>(fd);
  recent_.push_front(url);
  while (recent_.size() > max_open_) {
    open_[recent_.back()].reset();  // readers still using it keep it open until they finish
    recent_.pop_back();
  }
  return open_[url];
}

Status FileReader::Read(uint32_t url, uint64_t offset, uint64_t length, std::string& out) {
  KERCHUNK_ASSIGN_OR_RETURN(std::shared_ptr<const Descriptor> descriptor, Open(url));
  const int fd = descriptor->fd;
  out.resize(length);
  uint64_t done = 0;
  while (done < length) {
    const ssize_t n =
        ::pread(fd, out.data() + done, length - done, static_cast<off_t>(offset + done));
    if (n < 0) {
      if (errno == EINTR) continue;
      return IoError("cannot read {}: {}", files_.by_url[url].path, std::strerror(errno));
    }
    if (n == 0) {
      return DataLossError("{} ends at byte {}, inside the range [{}, {})", files_.by_url[url].path,
                           offset + done, offset, offset + length);
    }
    done += static_cast<uint64_t>(n);
  }
  return OkStatus();
}

Status FileReader::ReadAll(uint32_t url, std::string& out) {
  return Read(url, 0, files_.by_url[url].size, out);
}

bool Sampled(uint64_t array, uint64_t chunk, double fraction, uint64_t seed) {
  if (fraction >= 1) return true;
  // splitmix64 of the three values: cheap and well mixed.
  uint64_t x = seed ^ (array * 0x9E3779B97F4A7C15ull) ^ (chunk + 0x632BE59BD9B4E019ull);
  x ^= x >> 30;
  x *= 0xBF58476D1CE4E5B9ull;
  x ^= x >> 27;
  x *= 0x94D049BB133111EBull;
  x ^= x >> 31;
  return static_cast<double>(x >> 11) < fraction * 9007199254740992.0;  // 2^53
}

}  // namespace kerchunk::verify::internal
