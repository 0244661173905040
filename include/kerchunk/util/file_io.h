// File access at the operating-system boundary: read-only memory maps for the files being
// indexed, and output files that appear only when complete (temporary file + rename).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "kerchunk/util/status.h"

namespace kerchunk {

/// A read-only memory map of a whole file. Pages are touched only when read, so walking a chunk
/// index reads just the index nodes, not the data. A small file (up to 128 KiB) is read into
/// memory instead, which costs less than mapping it. Move-only; unmaps on destruction.
class MappedFile {
 public:
  static Result<MappedFile> Open(const std::string& path);

  MappedFile() = default;
  MappedFile(MappedFile&& other) noexcept;
  MappedFile& operator=(MappedFile&& other) noexcept;
  MappedFile(const MappedFile&) = delete;
  MappedFile& operator=(const MappedFile&) = delete;
  ~MappedFile();

  std::span<const std::byte> bytes() const { return {data_, size_}; }
  uint64_t size() const { return size_; }
  /// The modification time when the file was opened (nanoseconds since the Unix epoch): the
  /// time of the bytes this object holds, even if the file is replaced later.
  int64_t mtime_ns() const { return mtime_ns_; }
  const std::string& path() const { return path_; }

 private:
  const std::byte* data_ = nullptr;
  uint64_t size_ = 0;
  int64_t mtime_ns_ = 0;
  std::string path_;
  std::unique_ptr<char[]> read_;  // a small file's bytes (data_ points here), else null

  void Unmap();
};

/// Reads a whole file into memory (for small inputs such as JSON parts and file lists).
Result<std::string> ReadFileToString(const std::string& path);

/// The size of a file in bytes (NotFound when it does not exist).
Result<uint64_t> FileSize(const std::string& path);

/// The identity of an existing file: device and inode numbers, after following symbolic links.
/// Two paths name the same file (hard links, symbolic links, "./x" and "x") exactly when their
/// identities are equal, which comparing the path strings cannot tell.
struct FileIdentity {
  uint64_t device = 0;
  uint64_t inode = 0;
  friend bool operator==(const FileIdentity&, const FileIdentity&) = default;
};

/// The identity of `path`; nullopt when it does not exist or cannot be examined (an output
/// that does not exist yet cannot be any input).
std::optional<FileIdentity> IdentifyFile(const std::string& path);

/// Reads `length` bytes at `offset` of a file with pread (for verify's range reads).
Result<std::string> ReadFileRange(const std::string& path, uint64_t offset, uint64_t length);

/// A regular file open for positioned reads: one open and one stat however many ranges are read
/// (reading a coordinate chunk by chunk through ReadFileRange opened, stat'ed and closed the file
/// once per chunk). Move-only; closes on destruction.
class ReadOnlyFile {
 public:
  /// Opens `path`; NotFound when it does not exist, InvalidArgument when not a regular file.
  static Result<ReadOnlyFile> Open(const std::string& path);

  ReadOnlyFile() = default;
  ReadOnlyFile(ReadOnlyFile&& other) noexcept;
  ReadOnlyFile& operator=(ReadOnlyFile&& other) noexcept;
  ReadOnlyFile(const ReadOnlyFile&) = delete;
  ReadOnlyFile& operator=(const ReadOnlyFile&) = delete;
  ~ReadOnlyFile();

  /// The size when the file was opened.
  uint64_t size() const { return size_; }
  const std::string& path() const { return path_; }

  /// `length` bytes at `offset`; DataLoss naming the file when it ends before.
  Result<std::string> Read(uint64_t offset, uint64_t length) const;

 private:
  int fd_ = -1;
  uint64_t size_ = 0;
  std::string path_;
};

/// An output file that is written to "<path>.tmp.<pid>.<n>" and renamed to `path` only by
/// Commit(), so a failed run never leaves a partial output. Destruction without Commit() removes
/// the temporary file. Writing to "-" goes to standard output (nothing to rename). Errors name
/// `path`, never the temporary name the user did not choose.
class AtomicOutputFile {
 public:
  static Result<AtomicOutputFile> Create(const std::string& path);

  AtomicOutputFile(AtomicOutputFile&& other) noexcept;
  AtomicOutputFile& operator=(AtomicOutputFile&&) = delete;
  ~AtomicOutputFile();

  /// Appends `bytes`. Every 8 MiB written are handed to the kernel's writeback at once, so that
  /// the disk writes while the caller produces the rest and Commit's fsync waits only for the
  /// tail (an 87 MB index waited 15 ms in fsync with all of it still dirty).
  Status Write(std::string_view bytes);
  /// Flushes, fsyncs and renames the temporary file into place.
  Status Commit();
  const std::string& path() const { return path_; }

 private:
  AtomicOutputFile() = default;
  void StartWriteback();
  std::string path_;
  std::string temp_path_;
  int fd_ = -1;
  int signal_slot_ = -1;  ///< where temp_path_ is recorded for RemoveTemporaryOutputs
  bool committed_ = false;
  uint64_t written_ = 0;       ///< bytes written so far
  uint64_t writeback_to_ = 0;  ///< bytes already handed to writeback
};

/// Writes `contents` to `path` atomically (see AtomicOutputFile).
Status WriteFileAtomically(const std::string& path, std::string_view contents);

/// Removes the temporary file of every AtomicOutputFile not yet committed. Async-signal-safe
/// (unlink only), for a program's own fatal-signal handler; the objects must not be used after.
void RemoveTemporaryOutputs();

/// Installs handlers for SIGINT, SIGTERM and SIGHUP that call RemoveTemporaryOutputs and then
/// end the process by the same signal (a shell reports exit status 128 + signal: 130, 143,
/// 129). Signals that are ignored (nohup) stay ignored. For programs, not libraries.
void RemoveTemporaryOutputsOnSignals();

}  // namespace kerchunk
