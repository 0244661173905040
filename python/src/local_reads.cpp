#include "local_reads.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <optional>
#include <tuple>

#include "kerchunk/util/checked_math.h"

namespace kerchunk::python::internal {

namespace {

// One open file of a batch; closed when the batch is done.
class OpenFile {
 public:
  OpenFile() = default;
  OpenFile(const OpenFile&) = delete;
  OpenFile& operator=(const OpenFile&) = delete;
  ~OpenFile() {
    if (fd_ >= 0) ::close(fd_);
  }

  Status Open(const LocalRead& r) {
    fd_ = ::open(r.path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd_ < 0) return Errno(r, "cannot open");
    struct stat st;
    if (::fstat(fd_, &st) != 0) return Errno(r, "cannot stat");
    size_ = static_cast<uint64_t>(st.st_size);
    return OkStatus();
  }

  Status Read(LocalRead& r) const {
    uint64_t length = r.length ? *r.length : size_;
    auto end = CheckedAdd(r.offset, length);
    if (!end || *end > size_) {
      return DataLossError("key {}: bytes [{}, {}) of {} are past its end ({} bytes)", r.key,
                           r.offset, end ? fmt::to_string(*end) : std::string("2^64+"), r.url,
                           size_);
    }
    r.bytes.resize(length);
    uint64_t done = 0;
    while (done < length) {
      ssize_t n =
          ::pread(fd_, r.bytes.data() + done, length - done, static_cast<off_t>(r.offset + done));
      if (n < 0 && errno == EINTR) continue;
      if (n < 0) return Errno(r, "cannot read");
      if (n == 0) {
        return DataLossError("key {}: {} ended at byte {} while reading [{}, {})", r.key, r.url,
                             r.offset + done, r.offset, *end);
      }
      done += static_cast<uint64_t>(n);
    }
    return OkStatus();
  }

 private:
  static Status Errno(const LocalRead& r, std::string_view what) {
    int err = errno;
    std::string message = fmt::format("key {}: {}: {}: {}", r.key, r.url, what, std::strerror(err));
    return err == ENOENT ? Status(StatusCode::kNotFound, message)
                         : Status(StatusCode::kIoError, message);
  }

  int fd_ = -1;
  uint64_t size_ = 0;
};

}  // namespace

Status ReadLocalRanges(std::vector<LocalRead>& reads) {
  // By file, then offset: one file open at a time (a batch may span thousands of files, more
  // than a process may hold open) and each read forward through it.
  std::vector<size_t> order(reads.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return std::tie(reads[a].path, reads[a].offset) < std::tie(reads[b].path, reads[b].offset);
  });
  std::optional<OpenFile> file;
  const std::string* open_path = nullptr;
  for (size_t i : order) {
    LocalRead& r = reads[i];
    if (!open_path || *open_path != r.path) {
      file.emplace();
      open_path = &r.path;
      KERCHUNK_RETURN_IF_ERROR(file->Open(r));
    }
    KERCHUNK_RETURN_IF_ERROR(file->Read(r));
  }
  return OkStatus();
}

}  // namespace kerchunk::python::internal
