// The C++ side of the Python package kerchunk_packed: a read-only zarr v2 key-value store over a
// packed or plain Kerchunk index. It resolves keys through PackedIndex::Resolve and reads the
// bytes of local references itself (pread), so a zarr selection of many chunks is one call
// without the Python interpreter. References to other URLs (s3://, https://, memory://, ...)
// come back as ranges for the Python layer to read through fsspec, with the user's credentials.
//
// Nothing here touches Python: the binding (module.cpp) converts types and releases the GIL
// around these calls, and this file is tested under the sanitizers like the rest of the library.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "kerchunk/pack/packed_index.h"
#include "kerchunk/scan/url_mapping.h"
#include "kerchunk/util/status.h"

namespace kerchunk::python {

/// The value of one key as the store hands it over.
struct FetchedValue {
  enum class Kind : uint8_t {
    kAbsent,  ///< no such key: an unwritten chunk (zarr uses the fill value) or nothing at all
    kBytes,   ///< `bytes` holds the value (metadata, inline data, or a local range read here)
    kRemote,  ///< `url` (rewritten), `offset`, `length`: to be read by the caller
  };
  Kind kind = Kind::kAbsent;
  std::string bytes;
  std::string url;
  uint64_t offset = 0;
  std::optional<uint64_t> length;  ///< nullopt: the whole file ([url] references)
};

struct StoreOptions {
  /// FROM=TO prefix rules applied to every referenced URL before it is read (the longest FROM
  /// wins, at a '/' boundary, as `kerchunk scan --rewrite`): move an index to another copy of
  /// its files without rewriting it.
  std::vector<PrefixRewrite> rewrites;
};

class StoreReader {
 public:
  /// Opens a packed file or a plain Kerchunk JSON file (told apart by their first bytes).
  /// Errors as PackedIndex::Open and ReadKerchunkFile, naming the file.
  static Result<StoreReader> Open(const std::string& path, StoreOptions options = {});
  /// The same for index text already in memory (an index fetched from a remote location);
  /// `name` names it in errors.
  static Result<StoreReader> Parse(std::string_view text, std::string_view name,
                                   StoreOptions options = {});

  /// The values of `keys`, in order. Local ranges are read here, grouped per file. Errors
  /// (DataLoss for corrupt index data or a range past the end of its file, NotFound/IoError for
  /// a referenced file) name the key and the URL; one error fails the whole call.
  Result<std::vector<FetchedValue>> GetMany(std::span<const std::string> keys) const;

  /// Whether `key` has a value (resolves it without reading any bytes).
  Result<bool> Contains(std::string_view key) const;

  /// The keys that are not chunks of an array grid, in index order (see PackedIndex::entries).
  std::vector<std::string> EntryKeys() const;

  /// True when the index was a packed file, false for plain Kerchunk JSON.
  bool packed() const { return packed_; }
  /// Number of keys the index holds.
  uint64_t key_count() const { return index_.key_count(); }

 private:
  StoreReader(pack::PackedIndex index, StoreOptions options, bool packed)
      : index_(std::move(index)), options_(std::move(options)), packed_(packed) {}

  /// The URL to read for a referenced URL, after the rewrite rules.
  std::string Rewritten(std::string_view url) const;

  pack::PackedIndex index_;
  StoreOptions options_;
  bool packed_ = false;
};

/// The local path a URL names: a plain path (no "scheme://") or a "file://" URL; nullopt for
/// any other URL.
std::optional<std::string> LocalPath(std::string_view url);

}  // namespace kerchunk::python
