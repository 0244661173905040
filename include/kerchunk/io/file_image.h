// The bytes of a whole file, in memory, fetched only where they are read. The format readers
// parse a file as one byte span (a memory map for local files); a FileImage gives them such a
// span for a remote file too, without downloading it: the span is reserved address space whose
// pages are filled from the ByteSource the first time the reader touches them (Linux
// userfaultfd), a block and its read-ahead per request. So the readers need no change to read
// remote files, and the requests follow exactly what they read.
//
// Where userfaultfd is unavailable (another OS, a kernel or sandbox that forbids it), the image
// is the whole file fetched at once: correct, at the cost of the bytes.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>

#include "kerchunk/io/byte_source.h"
#include "kerchunk/util/status.h"

namespace kerchunk::io {

struct FileImageOptions {
  /// Bytes fetched by the first request: the head of the file, where the superblock, the
  /// header of a netCDF file and most of a netCDF-4 file's metadata are.
  uint64_t head_bytes = uint64_t{4} << 20;
  /// Bytes fetched on a later first touch: the touched block (aligned) and the blocks after it
  /// up to this size, stopping at one already fetched (index nodes sit close together). Not
  /// larger: in a netCDF-4 file written chunk by chunk the B-tree nodes sit between the chunks,
  /// a few KiB every few hundred KiB; on 10 files of 14 MB, 256 KiB blocks fetched 131 of their
  /// 144 MB in 361 requests, 64 KiB blocks 65.5 MB in 379, 16 KiB 48.5 MB in 417.
  uint64_t block_bytes = uint64_t{64} << 10;
  /// Fetch the whole file at once instead (also what happens without userfaultfd).
  bool whole_file = false;
  /// Fetch the head while opening, with ByteSource::ReadPrefix: over HTTP the size comes with
  /// it, so a file whose metadata lies in its head costs one request instead of a HEAD and a
  /// GET. Off, nothing is fetched before the first touch.
  bool prefetch_head = false;
};

class FileImage {
 public:
  /// Sizes the file (one request unless the source knows) and reserves the image. The source
  /// is used by a helper thread from then on; errors of later fetches are reported by
  /// status().
  static Result<std::unique_ptr<FileImage>> Open(std::unique_ptr<ByteSource> source,
                                                 const FileImageOptions& options = {});
  ~FileImage();
  FileImage(const FileImage&) = delete;
  FileImage& operator=(const FileImage&) = delete;

  /// The whole file. Reading it fetches what is read; a fetch that fails leaves zeros and makes
  /// status() an error, so callers check status() after parsing and report that instead.
  std::span<const std::byte> bytes() const { return {data_, size_}; }
  uint64_t size() const { return size_; }
  /// The first fetch error (naming the URL), or OK.
  Status status() const;
  /// Requests and bytes so far.
  SourceStats stats() const;
  /// Whether pages are fetched on first touch (false: the whole file was fetched).
  bool lazy() const { return lazy_; }
  /// Whether the `length` bytes at `offset` have been fetched already, so that reading them
  /// costs no request. Asks the kernel which pages are in memory (mincore), so it never fetches.
  bool Holds(uint64_t offset, uint64_t length) const;

 private:
  FileImage() = default;
  struct Lazy;
  // Reserves the image and starts serving its faults from `uffd`; false when the kernel refuses
  // (the caller then reads the whole file).
  // `head`, when not empty, holds the first bytes of the file: placed at once.
  bool StartLazy(int uffd, const FileImageOptions& options, std::string* head);

  std::unique_ptr<ByteSource> source_;
  std::byte* data_ = nullptr;
  uint64_t size_ = 0, mapped_ = 0;
  bool lazy_ = false;
  std::string whole_;  // the whole file when not lazy
  std::unique_ptr<Lazy> lazy_state_;
};

}  // namespace kerchunk::io
