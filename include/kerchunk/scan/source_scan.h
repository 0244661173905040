// Scanning a file where it lives: a local path (memory-mapped) or an http(s):// / s3:// URL,
// whose bytes the format scanners read through an io::FileImage, fetched as they are touched.
#pragma once

#include <cstdint>
#include <string>

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
  double seconds = 0;  ///< wall time of the whole per-file scan, fetches included
};

/// Bytes a remote scan fetches first: the superblock and, for typical netCDF-4 files, all of
/// the metadata, so that most files cost one request.
inline constexpr uint64_t kRemoteHeadBytes = uint64_t{4} << 20;

/// Translates the file at `location` (a local path, or a URL io::IsRemoteUrl accepts) with the
/// scanner of its format; `url` is what the references name. A remote file is read through an
/// io::FileImage whose head is fetched with the size in one request; if any fetch failed, that
/// error (naming the URL: 404, 403, a body cut short, retries exhausted) is the result, never
/// what the scanner made of the missing bytes. Also checks that every byte range referenced lies
/// inside the file. `stats`, when given, receives the cost even when the scan fails.
Result<FileScanResult> ScanSource(const std::string& location, const std::string& url,
                                  const FileScanOptions& options,
                                  const io::SourceOptions& source_options,
                                  FileFetchStats* stats = nullptr);

}  // namespace kerchunk
