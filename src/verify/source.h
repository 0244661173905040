// The original files as their own libraries read them (libhdf5 for HDF5/NetCDF-4, netCDF-C for
// NetCDF-3): the oracle `verify --source` compares decoded chunks with. Nothing here uses the
// toolkit's own HDF5 or NetCDF-3 parsers, so a bug shared by scan and verify cannot hide.
#pragma once

#include <cstdint>
#include <functional>
#include <list>
#include <memory>
#include <mutex>
#include <optional>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "kerchunk/util/status.h"
#include "verify/cf_decoding.h"
#include "verify/url_resolver.h"
#include "verify/zarray_rules.h"

namespace kerchunk::verify::internal {

/// Where the library says a chunk's bytes are.
struct StoredLocation {
  bool allocated = false;
  uint64_t offset = 0;  ///< absolute file offset
  uint64_t size = 0;    ///< stored bytes, including a fletcher32 checksum
  uint32_t filter_mask = 0;
};

/// One dataset (variable) of an original file. Not thread-safe: SourceFiles serialises use.
class SourceDataset {
 public:
  virtual ~SourceDataset() = default;
  /// "HDF5 dataset /tas" or "netCDF variable tas", for messages.
  virtual std::string Describe() const = 0;
  /// The shape in this file.
  virtual const std::vector<uint64_t>& shape() const = 0;
  /// True when stored chunks end with HDF5's 4-byte fletcher32 checksum.
  virtual bool fletcher32() const { return false; }
  /// The library's record of the chunk whose first element is `start`; nullopt when the format
  /// keeps no such record (NetCDF-3, compact datasets).
  virtual Result<std::optional<StoredLocation>> Locate(std::span<const uint64_t> start) = 0;
  /// Allocated chunks, when the library counts them.
  virtual Result<std::optional<uint64_t>> CountChunks() = 0;
  /// The first element of the chunk stored at `offset`, by scanning the chunk index (slow; at
  /// most `limit` chunks). nullopt when none is found or the format has no index.
  virtual Result<std::optional<std::vector<uint64_t>>> FindChunkAt(uint64_t offset,
                                                                   uint64_t limit) = 0;
  /// Reads elements [start, start + count) in C order as `dtype` (same item size and byte
  /// order as the zarr array), appending nothing: `out` is resized to the exact bytes.
  virtual Status Read(std::span<const uint64_t> start, std::span<const uint64_t> count,
                      const DtypeInfo& dtype, std::string& out) = 0;
  /// The dataset's own CF attributes as its library reads them (scale_factor, add_offset,
  /// _FillValue, missing_value as numbers; _Unsigned); attributes that are not numbers are left
  /// out, as readers ignore them.
  virtual Result<CfDecoding> Decoding() = 0;
  /// Reads variable-length strings (object arrays); a missing value is nullopt.
  virtual Result<std::vector<std::optional<std::string>>> ReadStrings(
      std::span<const uint64_t> start, std::span<const uint64_t> count) = 0;
};

/// One original file with its datasets opened on demand.
class SourceFile {
 public:
  virtual ~SourceFile() = default;
  /// The dataset of the zarr array at `array_path` ("g/tas" -> HDF5 "/g/tas"); NotFound when
  /// the file has none.
  virtual Result<SourceDataset*> Dataset(const std::string& array_path) = 0;
};

/// Opens an HDF5 or NetCDF-3 file (judged by its first bytes) with its library.
Result<std::unique_ptr<SourceFile>> OpenSourceFile(const std::string& path);
Result<std::unique_ptr<SourceFile>> OpenHdf5Source(const std::string& path);
Result<std::unique_ptr<SourceFile>> OpenNetcdf3Source(const std::string& path);

/// The source files of a reference set by URL id, opened lazily and kept open (up to a limit,
/// least recently used closed first). Thread-safe: work on one file is serialised, since
/// netCDF-C is not thread-safe and libhdf5 takes a global lock anyway.
class SourceFiles {
 public:
  explicit SourceFiles(const ResolvedFiles& files, size_t max_open = 64)
      : files_(files), max_open_(max_open) {}

  /// Runs fn on the dataset of `array` in the file of `url`, holding that file's lock. Errors
  /// opening the file or the dataset are returned (and remembered: a file that failed to open
  /// is not retried).
  Status With(uint32_t url, const std::string& array,
              const std::function<Status(SourceDataset&)>& fn);

 private:
  struct Slot {
    std::mutex mutex;
    std::unique_ptr<SourceFile> file;
    Status open_error;
  };
  std::shared_ptr<Slot> Acquire(uint32_t url);

  const ResolvedFiles& files_;
  size_t max_open_;
  std::mutex mutex_;
  std::unordered_map<uint32_t, std::shared_ptr<Slot>> open_;
  std::list<uint32_t> recent_;  // most recently used first
  std::unordered_map<uint32_t, Status> failed_;
};

}  // namespace kerchunk::verify::internal
