// The interface every format scanner (HDF5 / NetCDF-4 in src/hdf5, NetCDF-3 in src/netcdf3)
// implements: one file's bytes in, its references out. It sits below the scanners and the scan
// driver, so that `scan` depends on the formats and not the other way round, and so that a
// scanner never knows where its bytes come from (a memory map of a local file, or an
// io::FileImage of an http(s):// or s3:// object fetched as it is read).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "kerchunk/refs/reference_set.h"
#include "kerchunk/util/status.h"

namespace kerchunk {

/// What to do with a variable whose stored bytes no zarr reader can decode: filters without a
/// numcodecs equivalent (szip, nbit, scaleoffset, lzf, bitshuffle, unknown ids), chunks stored
/// with a non-zero filter mask, compound and opaque types.
enum class OnUnsupported {
  kError,   ///< fail the file with an error naming the variable (default)
  kSkip,    ///< leave the variable out, with a warning
  kInline,  ///< read the decoded values with the HDF5 library and store them inline, when the
            ///< variable is small (FileScanOptions::max_inline_bytes); else as kError
};

/// Which code reads an HDF5 file's metadata.
enum class Hdf5Reader {
  kNative,      ///< the native reader (default); a file it cannot translate yet, or calls corrupt
                ///< where libhdf5 reads it, goes to libhdf5, with a warning saying why
  kNativeOnly,  ///< the native reader only: such a file is an Unsupported error instead (tests)
  kLibrary,     ///< libhdf5 (`--hdf5-library`, the test oracle), under its global lock
};

struct FileScanOptions {
  /// Chunks smaller than this many bytes are stored inline as "base64:..." (0: never).
  uint64_t inline_threshold = 0;
  OnUnsupported on_unsupported = OnUnsupported::kError;
  /// Largest decoded size of a variable that OnUnsupported::kInline stores.
  uint64_t max_inline_bytes = 1 << 20;
  Hdf5Reader hdf5_reader = Hdf5Reader::kNative;
};

/// The references of one file and what the translation noticed on the way.
struct FileScanResult {
  ReferenceSet refs;                  ///< url id 0 is the file's URL
  std::vector<std::string> warnings;  ///< e.g. "variable /x skipped: uses szip"
  uint64_t referenced_bytes = 0;      ///< sum of the lengths of the byte-range references
  /// Names of unlimited (record) dimensions, from which `kerchunk scan` picks its default
  /// concat dimension.
  std::vector<std::string> unlimited_dims;
  /// HDF5 only: why the libhdf5 translator was used instead of the native one ("" when the
  /// native reader translated the file or libhdf5 was asked for).
  std::string hdf5_fallback;
};

/// One whole file to translate.
struct FileBytes {
  /// Every byte of the file. Scanners read only what they need; for a remote file each first
  /// touch of a page may be a request, so they must not sweep it needlessly.
  std::span<const std::byte> bytes;
  std::string name;  ///< what error messages start with: the path or the URL as given
  std::string url;   ///< what the references name (after --rewrite / --url-prefix)
  /// The local file `bytes` are a map of, or "" for a remote file. Only libhdf5 (the oracle and
  /// the fallback) needs a path; without one it opens a copy of the bytes in memory, which
  /// fetches the whole of a remote file.
  std::string local_path;
};

/// A format's scanner. Implementations are stateless singletons, safe to call from many threads.
class FormatScanner {
 public:
  virtual ~FormatScanner() = default;
  /// "HDF5" or "NetCDF-3", for messages.
  virtual std::string_view format_name() const = 0;
  /// Whether `file` (the whole file; only the few bytes where a signature can be are read)
  /// carries this format's signature. Says nothing about whether the rest is readable.
  virtual bool Recognizes(std::span<const std::byte> file) const = 0;
  /// Translates the file. Errors start with `file.name` and say which structure failed.
  virtual Result<FileScanResult> Scan(const FileBytes& file,
                                      const FileScanOptions& options) const = 0;
};

}  // namespace kerchunk
