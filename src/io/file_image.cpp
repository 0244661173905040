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
#include <utility>
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

// The lazily filled state: the userfaultfd, the helper thread serving its faults, which pages
// hold the file's bytes, and the first fetch error.
struct FileImage::Lazy {
  int uffd = -1;
  int stop[2] = {-1, -1};  // a pipe: writing to it ends the helper thread
  std::thread helper;
  uint64_t base = 0, size = 0, page = 4096, head_pages = 1, block_pages = 1;
  ByteSource* source = nullptr;
  std::vector<bool> fetched;  // per page; only the helper thread touches it
  bool head_fetched = false;
  mutable std::mutex mutex;  // the source (its stats) and the first error
  Status error;

  // Serves faults until asked to stop.
  void Run() {
    for (;;) {
      pollfd fds[2] = {{uffd, POLLIN, 0}, {stop[0], POLLIN, 0}};
      if (::poll(fds, 2, -1) < 0) {
        if (errno == EINTR) continue;
        return;
      }
      if (fds[1].revents) return;
      uffd_msg msg;
      if (::read(uffd, &msg, sizeof msg) != sizeof msg) continue;  // EAGAIN: nothing yet
      if (msg.event != UFFD_EVENT_PAGEFAULT) continue;
      ServeFault((msg.arg.pagefault.address - base) / page);
    }
  }

  void ServeFault(uint64_t page_index) {
    const uint64_t pages = fetched.size();
    if (page_index >= pages || fetched[page_index]) {
      Wake(std::min(page_index, pages - 1), std::min(page_index, pages - 1) + 1);  // filled already
      return;
    }
    const auto [first, last] = PagesToFetch(page_index);
    const uint64_t offset = first * page;
    const uint64_t end = std::min(size, last * page);
    Result<std::string> bytes = [&] {
      std::lock_guard<std::mutex> lock(mutex);
      Result<std::string> r = source->Read(offset, end - offset);
      if (!r.ok() && error.ok()) error = r.status();
      return r;
    }();
    Fill(first, last, bytes.ok() ? &*bytes : nullptr);
    std::fill(fetched.begin() + static_cast<ptrdiff_t>(first),
              fetched.begin() + static_cast<ptrdiff_t>(last), true);
  }

  // The run of empty pages to fetch for a fault on `page_index`: the head on the first fault
  // there, else the touched block (aligned), never over a page already filled.
  std::pair<uint64_t, uint64_t> PagesToFetch(uint64_t page_index) {
    const uint64_t pages = fetched.size();
    const bool head = !head_fetched && page_index < head_pages;
    const uint64_t block = page_index / block_pages * block_pages;
    const uint64_t lowest = head ? 0 : block;
    const uint64_t highest = std::min(pages, head ? head_pages : block + block_pages);
    uint64_t first = page_index, last = page_index + 1;
    while (first > lowest && !fetched[first - 1]) --first;
    while (last < highest && !fetched[last]) ++last;
    if (first == 0) head_fetched = true;
    return {first, last};
  }

  // Puts `bytes` (zeros when null: the fetch failed, status() says so) into pages
  // [first, last) and wakes the readers waiting there. Whatever happens, they are woken: a
  // reader left asleep would hang the scan.
  void Fill(uint64_t first, uint64_t last, std::string* bytes) {
    const uint64_t length = (last - first) * page;
    bool filled = false;
    if (bytes) {
      bytes->resize(length, '\0');  // the tail of the last page
      uffdio_copy copy{};
      copy.dst = base + first * page;
      copy.src = reinterpret_cast<uint64_t>(bytes->data());
      copy.len = length;
      filled = ::ioctl(uffd, UFFDIO_COPY, &copy) == 0 || errno == EEXIST;
      if (!filled) {
        std::lock_guard<std::mutex> lock(mutex);
        if (error.ok()) {
          error = IoError("{}: cannot place fetched bytes in memory: {}", source->name(),
                          std::strerror(errno));
        }
      }
    }
    if (!filled) {
      uffdio_zeropage zero{};
      zero.range.start = base + first * page;
      zero.range.len = length;
      ::ioctl(uffd, UFFDIO_ZEROPAGE, &zero);
    }
    Wake(first, last);
  }

  void Wake(uint64_t first, uint64_t last) {
    uffdio_range range{base + first * page, (last - first) * page};
    ::ioctl(uffd, UFFDIO_WAKE, &range);
  }
};

Result<std::unique_ptr<FileImage>> FileImage::Open(std::unique_ptr<ByteSource> source,
                                                   const FileImageOptions& options) {
  std::unique_ptr<FileImage> image(new FileImage());
  std::string head;
  if (options.prefetch_head && !options.whole_file) {
    KERCHUNK_ASSIGN_OR_RETURN(head, source->ReadPrefix(options.head_bytes));
  }
  KERCHUNK_ASSIGN_OR_RETURN(image->size_, source->Size());
  image->source_ = std::move(source);
  if (image->size_ == 0) return image;
  const int uffd = options.whole_file ? -1 : OpenUserfaultfd();
  if (uffd >= 0 && image->StartLazy(uffd, options, &head)) return image;
  if (uffd >= 0) ::close(uffd);
  if (head.size() == image->size_) {
    image->whole_ = std::move(head);
  } else {
    KERCHUNK_ASSIGN_OR_RETURN(std::string rest,
                              image->source_->Read(head.size(), image->size_ - head.size()));
    image->whole_ = std::move(head) + rest;
  }
  image->data_ = reinterpret_cast<std::byte*>(image->whole_.data());
  return image;
}

bool FileImage::StartLazy(int uffd, const FileImageOptions& options, std::string* head) {
  auto lazy = std::make_unique<Lazy>();
  lazy->page = PageSize();
  mapped_ = (size_ + lazy->page - 1) / lazy->page * lazy->page;
  void* p = ::mmap(nullptr, mapped_, PROT_READ | PROT_WRITE,
                   MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
  if (p == MAP_FAILED) return false;
  uffdio_register reg{};
  reg.range.start = reinterpret_cast<uint64_t>(p);
  reg.range.len = mapped_;
  reg.mode = UFFDIO_REGISTER_MODE_MISSING;
  if (::ioctl(uffd, UFFDIO_REGISTER, &reg) != 0 || ::pipe2(lazy->stop, O_CLOEXEC) != 0) {
    ::munmap(p, mapped_);
    return false;
  }
  data_ = static_cast<std::byte*>(p);
  lazy->uffd = uffd;
  lazy->base = reinterpret_cast<uint64_t>(p);
  lazy->size = size_;
  lazy->source = source_.get();
  lazy->fetched.assign(mapped_ / lazy->page, false);
  lazy->block_pages = std::max<uint64_t>(1, options.block_bytes / lazy->page);
  lazy->head_pages = std::max<uint64_t>(1, (options.head_bytes + lazy->page - 1) / lazy->page);
  if (!head->empty()) {
    // Whole pages only, unless the head is the whole file (its last page is padded).
    const uint64_t pages = head->size() == size_ ? lazy->fetched.size() : head->size() / lazy->page;
    if (pages > 0) {
      lazy->Fill(0, pages, head);
      std::fill(lazy->fetched.begin(), lazy->fetched.begin() + static_cast<ptrdiff_t>(pages), true);
    }
    lazy->head_fetched = true;
  }
  lazy_ = true;
  lazy_state_ = std::move(lazy);
  lazy_state_->helper = std::thread([state = lazy_state_.get()] { state->Run(); });
  return true;
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

bool FileImage::Holds(uint64_t offset, uint64_t length) const {
  if (length == 0 || offset > size_ || length > size_ - offset) return false;
  if (!lazy_) return true;  // fetched whole
  const uint64_t page = static_cast<uint64_t>(::sysconf(_SC_PAGESIZE));
  const uint64_t first = offset / page * page;
  const uint64_t end = (offset + length + page - 1) / page * page;
  // A filled page of the image is resident (anonymous memory, never swapped in this short
  // life but for memory pressure, when the answer is merely "fetch it again").
  std::vector<unsigned char> resident((end - first) / page);
  if (::mincore(data_ + first, end - first, resident.data()) != 0) return false;
  return std::all_of(resident.begin(), resident.end(), [](unsigned char r) { return r & 1; });
}

}  // namespace kerchunk::io
