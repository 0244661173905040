// FileImage: reserved address space whose pages a helper thread fills from the source on first
// touch, through Linux userfaultfd (https://docs.kernel.org/admin-guide/mm/userfaultfd.html).
// The reading thread faults on an empty page; the kernel queues the fault on the userfaultfd
// and puts the thread to sleep; the helper reads the event, fetches the page's block from the
// source and copies it in (UFFDIO_COPY), which wakes the reader. UFFD_USER_MODE_ONLY lets
// unprivileged processes do this, as only our own user-space reads fault.
#include "kerchunk/io/file_image.h"

#include <fcntl.h>
#include <linux/userfaultfd.h>
#include <poll.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <mutex>
#include <thread>
#include <vector>

namespace kerchunk::io {
namespace {

// A userfaultfd for this process, or -1 where the kernel or a sandbox refuses one.
int OpenUserfaultfd() {
  // Faults in the kernel too (a system call given a pointer into the image) where allowed
  // (root, or vm.unprivileged_userfaultfd = 1); else user-space faults only, which is all the
  // format readers make.
  // Non-blocking: a blocking userfaultfd always polls as POLLERR, and its read() would keep the
  // helper from seeing the stop request.
  int fd = static_cast<int>(::syscall(SYS_userfaultfd, O_CLOEXEC | O_NONBLOCK));
#ifdef UFFD_USER_MODE_ONLY
  if (fd < 0) {
    fd = static_cast<int>(::syscall(SYS_userfaultfd, O_CLOEXEC | O_NONBLOCK | UFFD_USER_MODE_ONLY));
  }
#endif
  if (fd < 0) return -1;
  uffdio_api api{};
  api.api = UFFD_API;
  if (::ioctl(fd, UFFDIO_API, &api) != 0) {
    ::close(fd);
    return -1;
  }
  return fd;
}

uint64_t PageSize() { return static_cast<uint64_t>(::sysconf(_SC_PAGESIZE)); }

}  // namespace

struct FileImage::Lazy {
  int uffd = -1;
  int stop[2] = {-1, -1};  // a pipe: writing to it ends the helper thread
  std::thread helper;
  uint64_t page = 4096;
  std::vector<bool> fetched;  // per page; only the helper thread touches it
  mutable std::mutex mutex;   // the source, the stats and the first error
  Status error;
  bool head_fetched = false;
};

Result<std::unique_ptr<FileImage>> FileImage::Open(std::unique_ptr<ByteSource> source,
                                                   const FileImageOptions& options) {
  std::unique_ptr<FileImage> image(new FileImage());
  KERCHUNK_ASSIGN_OR_RETURN(image->size_, source->Size());
  image->source_ = std::move(source);
  if (image->size_ == 0) return image;
  const int uffd = options.whole_file ? -1 : OpenUserfaultfd();
  if (uffd < 0) {
    KERCHUNK_ASSIGN_OR_RETURN(image->whole_, image->source_->Read(0, image->size_));
    image->data_ = reinterpret_cast<std::byte*>(image->whole_.data());
    return image;
  }
  auto lazy = std::make_unique<Lazy>();
  lazy->uffd = uffd;
  lazy->page = PageSize();
  image->mapped_ = (image->size_ + lazy->page - 1) / lazy->page * lazy->page;
  void* p = ::mmap(nullptr, image->mapped_, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED) {
    ::close(uffd);
    return IoError("{}: cannot reserve {} bytes of address space for the file",
                   image->source_->name(), image->mapped_);
  }
  image->data_ = static_cast<std::byte*>(p);
  uffdio_register reg{};
  reg.range.start = reinterpret_cast<uint64_t>(p);
  reg.range.len = image->mapped_;
  reg.mode = UFFDIO_REGISTER_MODE_MISSING;
  if (::ioctl(uffd, UFFDIO_REGISTER, &reg) != 0 || ::pipe2(lazy->stop, O_CLOEXEC) != 0) {
    ::munmap(p, image->mapped_);
    ::close(uffd);
    image->data_ = nullptr;
    KERCHUNK_ASSIGN_OR_RETURN(image->whole_, image->source_->Read(0, image->size_));
    image->data_ = reinterpret_cast<std::byte*>(image->whole_.data());
    return image;
  }
  lazy->fetched.assign(image->mapped_ / lazy->page, false);
  image->lazy_ = true;
  image->lazy_state_ = std::move(lazy);
  FileImage* self = image.get();
  const FileImageOptions opts = options;
  self->lazy_state_->helper = std::thread([self, opts] {
    Lazy& l = *self->lazy_state_;
    const uint64_t base = reinterpret_cast<uint64_t>(self->data_);
    const uint64_t pages = l.fetched.size();
    const uint64_t block_pages = std::max<uint64_t>(1, opts.block_bytes / l.page);
    const uint64_t head_pages = std::max<uint64_t>(1, (opts.head_bytes + l.page - 1) / l.page);
    std::string bytes;
    for (;;) {
      pollfd fds[2] = {{l.uffd, POLLIN, 0}, {l.stop[0], POLLIN, 0}};
      if (::poll(fds, 2, -1) < 0) {
        if (errno == EINTR) continue;
        return;
      }
      if (fds[1].revents) return;
      uffd_msg msg;
      const ssize_t n = ::read(l.uffd, &msg, sizeof msg);
      if (n != sizeof msg || msg.event != UFFD_EVENT_PAGEFAULT) continue;
      const uint64_t page = (msg.arg.pagefault.address - base) / l.page;
      if (page >= pages || l.fetched[page]) {
        // Already filled for another fault: just wake the reader.
        uffdio_range wake{base + std::min(page, pages - 1) * l.page, l.page};
        ::ioctl(l.uffd, UFFDIO_WAKE, &wake);
        continue;
      }
      // The run of empty pages to fill: the head on the first fault there, else the touched
      // block and its read-ahead, never over a page already filled.
      uint64_t first = page, last = page + 1;
      const uint64_t limit_first =
          !l.head_fetched && page < head_pages ? 0 : page / block_pages * block_pages;
      const uint64_t limit_last =
          !l.head_fetched && page < head_pages
              ? std::min(pages, head_pages)
              : std::min(pages, page / block_pages * block_pages + block_pages);
      while (first > limit_first && !l.fetched[first - 1]) --first;
      while (last < limit_last && !l.fetched[last]) ++last;
      if (first == 0) l.head_fetched = true;
      const uint64_t offset = first * l.page;
      const uint64_t end = std::min(self->size_, last * l.page);
      Result<std::string> got = [&] {
        std::lock_guard<std::mutex> lock(l.mutex);
        Result<std::string> r = self->source_->Read(offset, end - offset);
        if (!r.ok() && l.error.ok()) l.error = r.status();
        return r;
      }();
      if (got.ok()) {
        bytes = std::move(*got);
        bytes.resize((last - first) * l.page, '\0');  // the tail of the last page
        uffdio_copy copy{};
        copy.dst = base + offset;
        copy.src = reinterpret_cast<uint64_t>(bytes.data());
        copy.len = (last - first) * l.page;
        ::ioctl(l.uffd, UFFDIO_COPY, &copy);
      } else {
        // Zeros, so the reader goes on; status() reports the error it must not ignore.
        uffdio_zeropage zero{};
        zero.range.start = base + offset;
        zero.range.len = (last - first) * l.page;
        ::ioctl(l.uffd, UFFDIO_ZEROPAGE, &zero);
      }
      std::fill(l.fetched.begin() + static_cast<ptrdiff_t>(first),
                l.fetched.begin() + static_cast<ptrdiff_t>(last), true);
    }
  });
  return image;
}

FileImage::~FileImage() {
  if (lazy_state_) {
    Lazy& l = *lazy_state_;
    if (l.helper.joinable()) {
      const char stop = 1;
      [[maybe_unused]] ssize_t n = ::write(l.stop[1], &stop, 1);
      l.helper.join();
    }
    for (int fd : {l.stop[0], l.stop[1], l.uffd}) {
      if (fd >= 0) ::close(fd);
    }
  }
  if (lazy_ && data_) ::munmap(data_, mapped_);
}

Status FileImage::status() const {
  if (!lazy_state_) return OkStatus();
  std::lock_guard<std::mutex> lock(lazy_state_->mutex);
  return lazy_state_->error;
}

SourceStats FileImage::stats() const {
  if (!lazy_state_) return source_->stats();
  std::lock_guard<std::mutex> lock(lazy_state_->mutex);
  return source_->stats();
}

}  // namespace kerchunk::io
