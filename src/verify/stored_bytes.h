// Reading the stored bytes of chunk references from local files, with one open descriptor per
// file shared by the worker threads (pread needs no locking), so reading a million small chunks
// costs a million preads, not a million opens. At most `max_open` files stay open (least
// recently used closed first), so an index of 100 000 files stays within the process's limit.
#pragma once

#include <cstdint>
#include <list>
#include <memory>
#include <mutex>
#include <string>
#include <vector>

#include "kerchunk/util/status.h"
#include "verify/url_resolver.h"

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
