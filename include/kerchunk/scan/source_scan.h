// Scanning a file where it lives: a local path (memory-mapped) or an http(s):// / s3:// URL,
// whose bytes the format scanners read through an io::FileImage, fetched as they are touched.
#pragma once

#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>

#include "kerchunk/formats/format_scanner.h"
#include "kerchunk/io/byte_source.h"
#include "kerchunk/util/status.h"

namespace kerchunk {

/// What reading one file cost.
struct FileFetchStats {
  bool remote = false;
  uint64_t requests = 0;       ///< HTTP requests (retries included); 0 for local files
  uint64_t bytes_fetched = 0;  ///< bytes received; 0 for local files (the page cache's business)
  uint64_t retries = 0;
  uint64_t file_size = 0;
  /// A local file's modification time when it was opened for the scan (nanoseconds since the
  /// Unix epoch), recorded with its size for verify --files; none for remote files.
  std::optional<int64_t> mtime_ns;
  double seconds = 0;  ///< wall time of the whole per-file scan, fetches included
};

/// Bytes a remote scan fetches first: the superblock and, for typical netCDF-4 files, all of
/// the metadata, so that most files cost one request.
inline constexpr uint64_t kRemoteHeadBytes = uint64_t{4} << 20;

/// Byte ranges of a remote file kept from its scan. Combine reads every file's coordinate
/// values again after the scans, and for a remote file each read is a round trip more, while
/// the scan has usually fetched those bytes already (a netCDF-4 file's head holds them).
class RetainedBytes {
 public:
  void Add(uint64_t offset, std::string bytes);
  /// The `length` bytes at `offset`, when one kept range holds them all.
  std::optional<std::string_view> Find(uint64_t offset, uint64_t length) const;
  uint64_t size() const { return size_; }

 private:
  std::map<uint64_t, std::string> ranges_;  // by offset
  uint64_t size_ = 0;
};

/// At most this many bytes of a file are retained.
inline constexpr uint64_t kRetainedBytesPerFile = uint64_t{1} << 20;

/// Translates the file at `location` (a local path, or a URL io::IsRemoteUrl accepts) with the
/// scanner of its format; `url` is what the references name. A remote file is read through an
/// io::FileImage whose head is fetched with the size in one request; if any fetch failed, that
/// error (naming the URL: 404, 403, a body cut short, retries exhausted) is the result, never
/// what the scanner made of the missing bytes. Also checks that every byte range referenced lies
/// inside the file. `stats`, when given, receives the cost even when the scan fails.
/// `retained`, when given, receives the chunks of a remote file's coordinate variables
/// (one-dimensional arrays named after their dimension) and of their bounds variables that the
/// scan has fetched already, up to kRetainedBytesPerFile; nothing for a local file.
Result<FileScanResult> ScanSource(const std::string& location, const std::string& url,
                                  const FileScanOptions& options,
                                  const io::SourceOptions& source_options,
                                  FileFetchStats* stats = nullptr,
                                  RetainedBytes* retained = nullptr);

}  // namespace kerchunk
