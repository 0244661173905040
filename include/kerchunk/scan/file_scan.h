// Translating one NetCDF/HDF5 file into references: the per-file step of `kerchunk scan`.
// The driver (scan.h) lists files, runs these in parallel, combines and writes the result.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
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

/// Translates an HDF5 / NetCDF-4 file. `url` is what the references name (the path after
/// --url-prefix/--rewrite), `path` the local file to read.
Result<FileScanResult> ScanHdf5File(const std::string& path, const std::string& url,
                                    const FileScanOptions& options);

/// Translates an HDF5 file image in memory with the native reader only (no libhdf5, no file):
/// what ScanHdf5File does with Hdf5Reader::kNativeOnly, for fuzzing and tests. `name` prefixes
/// error messages.
Result<FileScanResult> ScanHdf5Image(std::span<const std::byte> image, const std::string& name,
                                     const std::string& url, const FileScanOptions& options);

/// Translates a NetCDF-3 file (classic, 64-bit offset or CDF-5).
Result<FileScanResult> ScanNetcdf3File(const std::string& path, const std::string& url,
                                       const FileScanOptions& options);

/// The format of a file judged by its first bytes.
enum class FileFormat { kHdf5, kNetcdf3, kUnknown };
/// Detects the format (HDF5 signature at 0, 512, 1024, ...; "CDF\x01/\x02/\x05").
Result<FileFormat> DetectFileFormat(const std::string& path);

/// Dispatches on DetectFileFormat; an unknown format is an InvalidArgument error naming the file.
Result<FileScanResult> ScanFile(const std::string& path, const std::string& url,
                                const FileScanOptions& options);

}  // namespace kerchunk
