// Referenced files and byte ranges: URLs to local paths, a number for every byte range, ranges
// of one file that overlap, and reading stored bytes.
#pragma once

#include <atomic>
#include <cstdint>
#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <utility>
#include <vector>

#include "kerchunk/io/byte_source.h"
#include "kerchunk/refs/reference_set.h"
#include "kerchunk/scan/url_mapping.h"
#include "kerchunk/util/status.h"
#include "kerchunk/verify/report.h"

// From the URLs a reference set names to the files verify reads: REMOTE=LOCAL rules
// (--rewrite), then "file://" URLs and plain paths; when remote reads are allowed, http(s)://
// and s3:// URLs are read where they live through io::ByteSource. Other URLs have no path; the
// checks that need bytes skip their references and say so.
namespace kerchunk::verify::internal {

/// How verify reaches remote files: the connection options, and the requests and bytes every
/// source opened through it has used (summed as the sources finish; thread-safe).
class RemoteAccess {
 public:
  explicit RemoteAccess(io::SourceOptions options) : options_(std::move(options)) {}
  /// A new source for `url` (no request yet). One per thread: sources are not thread-safe.
  Result<std::unique_ptr<io::ByteSource>> Open(const std::string& url) const;
  /// Adds a finished source's requests and bytes.
  void Account(const io::SourceStats& stats);
  uint64_t requests() const { return requests_; }
  uint64_t bytes() const { return bytes_; }
  const io::SourceOptions& options() const { return options_; }

 private:
  io::SourceOptions options_;
  std::atomic<uint64_t> requests_{0}, bytes_{0};
};

struct ResolvedFile {
  std::string path;     ///< local path; empty when the URL has none
  bool remote = false;  ///< read over the network (http(s):// or s3://) instead
  std::string reason;   ///< why there is neither
  bool exists = false;
  uint64_t size = 0;
  std::string error;  ///< why the file cannot be used (does not exist, not readable)

  bool local() const { return !path.empty(); }
  /// Bytes can be read, locally or remotely.
  bool readable() const { return local() || remote; }
  bool usable() const { return readable() && exists; }
};

struct ResolvedFiles {
  std::vector<ResolvedFile> by_url;  ///< indexed by URL id
  uint64_t remote = 0;               ///< URLs that cannot be read (no local path, not remote)
  std::string first_remote;          ///< one of them, for messages
  uint64_t read_remotely = 0;        ///< URLs read over the network
  /// Set when remote reads are allowed; shared by every reader of this run.
  std::shared_ptr<RemoteAccess> access;
};

/// Resolves every URL of `urls` and, when `stat` is set, looks up the sizes (in parallel; a
/// remote file's with one HEAD request, its 404 or 403 being the file's error). With `remote`
/// set, http(s):// and s3:// URLs no rule maps are read through it; without, they have no path.
Result<ResolvedFiles> ResolveFiles(const UrlTable& urls, const std::vector<PrefixRewrite>& rewrites,
                                   bool stat, unsigned threads,
                                   const io::SourceOptions* remote = nullptr);

/// "URL" or "URL (local PATH)" when the two differ, for messages.
std::string DescribeFile(const UrlTable& urls, const ResolvedFiles& files, uint32_t url);

}  // namespace kerchunk::verify::internal

// Numbers every byte-range-bearing value of a reference set (array chunks, then entries) so the
// checks that sort references (overlaps, reads in file order) can name the key of each.
namespace kerchunk::verify::internal {

class RefLocator {
 public:
  explicit RefLocator(const ReferenceSet& refs);

  /// Ordinal of reference `i` of array `a`, and of entry `e`.
  uint64_t ChunkOrdinal(size_t a, size_t i) const { return array_base_[a] + i; }
  uint64_t EntryOrdinal(size_t e) const { return entry_base_ + e; }
  uint64_t size() const { return entry_base_ + refs_.entries.size(); }

  /// The key of an ordinal ("tas/0.1.2").
  std::string Key(uint64_t ordinal) const;
  /// The case (array path) an ordinal's findings belong to: the array, or the entry's parent.
  std::string CaseName(uint64_t ordinal) const;
  /// Index of the array holding an ordinal, or -1 for an entry.
  int64_t ArrayOf(uint64_t ordinal) const;

 private:
  const ReferenceSet& refs_;
  std::vector<uint64_t> array_base_;
  uint64_t entry_base_ = 0;
};

}  // namespace kerchunk::verify::internal

// Byte ranges of one file that overlap: no two chunks of an HDF5 or netCDF file share bytes, so
// an overlap means a wrong offset or length in one of them.
namespace kerchunk::verify::internal {

/// A range that starts before the end of an earlier range (in file order) of the same URL.
struct Overlap {
  uint64_t ordinal;  ///< the later range
  uint64_t other;    ///< the earlier range reaching furthest
  uint32_t url;
};

/// Every byte range (array chunks and entries, except empty or overflowing ones) that overlaps
/// an earlier one of the same URL, sorted by ordinal.
std::vector<Overlap> FindOverlaps(const ReferenceSet& refs, const RefLocator& locator,
                                  unsigned threads);

/// The finding of an overlap, naming both keys and both ranges.
Finding DescribeOverlap(const ReferenceSet& refs, const RefLocator& locator, const Overlap& o);

}  // namespace kerchunk::verify::internal

// Reading the stored bytes of chunk references from local files, with one open descriptor per
// file shared by the worker threads (pread needs no locking), so reading a million small chunks
// costs a million preads, not a million opens. At most `max_open` files stay open (least
// recently used closed first), so an index of 100 000 files stays within the process's limit.
namespace kerchunk::verify::internal {

class FileReader {
 public:
  explicit FileReader(const ResolvedFiles& files, size_t max_open = 256)
      : files_(files), max_open_(max_open), open_(files.by_url.size()) {}
  FileReader(const FileReader&) = delete;
  FileReader& operator=(const FileReader&) = delete;

  /// Reads exactly `length` bytes at `offset` of the file of URL id `url` into `out`.
  /// DataLoss when the file ends first; IoError when it cannot be opened or read.
  Status Read(uint32_t url, uint64_t offset, uint64_t length, std::string& out);
  /// Reads a whole file.
  Status ReadAll(uint32_t url, std::string& out);

 private:
  // An open descriptor, closed when the last reader using it lets go.
  struct Descriptor {
    explicit Descriptor(int f) : fd(f) {}
    Descriptor(const Descriptor&) = delete;
    Descriptor& operator=(const Descriptor&) = delete;
    ~Descriptor();
    int fd;
  };
  Result<std::shared_ptr<const Descriptor>> Open(uint32_t url);

  const ResolvedFiles& files_;
  size_t max_open_;
  std::mutex mutex_;
  std::vector<std::shared_ptr<const Descriptor>> open_;  // by URL id; null when closed
  std::list<uint32_t> recent_;                           // most recently used first
};

/// Whether --sample keeps a chunk: a deterministic hash of (array ordinal, chunk index, seed)
/// below fraction * 2^64, so reruns check the same chunks and every array is sampled evenly.
bool Sampled(uint64_t array, uint64_t chunk, double fraction, uint64_t seed);

}  // namespace kerchunk::verify::internal
