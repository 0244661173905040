// The reference model: what a Kerchunk reference file says, held columnar.
//
// A Kerchunk file maps zarr keys to values. Keys that are chunks of an array with a .zarray
// ("tas/12.0.3") are stored per array in parallel columns (chunk index, url id, offset, length),
// about 28 bytes a reference instead of a map of strings. Every other key (.zgroup, .zarray,
// .zattrs, keys outside any grid, arrays whose grid cannot be built) is an Entry, kept in order.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "kerchunk/refs/chunk_grid.h"
#include "kerchunk/util/column.h"
#include "kerchunk/util/status.h"

namespace kerchunk {

/// Interned URLs: each distinct URL is stored once and referred to by a 32-bit id.
class UrlTable {
 public:
  /// Id of `url`, adding it when new.
  uint32_t Intern(std::string_view url);
  /// Id of `url` if present.
  std::optional<uint32_t> Find(std::string_view url) const;
  const std::string& operator[](uint32_t id) const { return urls_[id]; }
  size_t size() const { return urls_.size(); }
  const std::vector<std::string>& urls() const { return urls_; }
  /// Replaces the URL of an id (used by --rewrite/--url-prefix); Intern() of the old URL then
  /// gives a new id. Fails if `url` is already another id's URL.
  Status Rename(uint32_t id, std::string url);

 private:
  std::vector<std::string> urls_;
  std::unordered_map<std::string, uint32_t> ids_;
};

/// What a reference value is.
enum class RefKind : uint8_t {
  kRange,      ///< [url, offset, length]: a byte range of a file
  kWholeFile,  ///< [url]: a whole file
  kInline,     ///< bytes stored in the reference file itself
};

/// A read-only view of one chunk reference (valid while its ArrayRefs lives).
struct ChunkRef {
  RefKind kind = RefKind::kRange;
  uint32_t url = 0;       ///< kRange, kWholeFile
  uint64_t offset = 0;    ///< kRange
  uint64_t length = 0;    ///< kRange
  std::string_view data;  ///< kInline: the raw (decoded) bytes
  bool base64 = false;    ///< kInline: written as "base64:..." (else as a plain JSON string)

  bool operator==(const ChunkRef& o) const {
    return kind == o.kind && url == o.url && offset == o.offset && length == o.length &&
           data == o.data && base64 == o.base64;
  }
};

/// The chunk references of one array, columnar and sorted by chunk index.
class ArrayRefs {
 public:
  /// Sentinels in the url column for inline chunks; the offset/length columns then locate the
  /// bytes in inline_data(). A length of kWholeFileLength marks a [url] reference.
  static constexpr uint32_t kInlineText = 0xFFFFFFFFu;
  static constexpr uint32_t kInlineBase64 = 0xFFFFFFFEu;
  static constexpr uint32_t kMaxUrlId = 0xFFFFFFFDu;
  static constexpr uint64_t kWholeFileLength = UINT64_MAX;

  ArrayRefs() = default;
  ArrayRefs(std::string path, ChunkGrid grid) : path_(std::move(path)), grid_(std::move(grid)) {}

  /// Array path without leading slash ("" for an array at the root of the store).
  const std::string& path() const { return path_; }
  const ChunkGrid& grid() const { return grid_; }
  /// Replaces the grid (combine grows the concat dimension); chunk indexes must be remapped by
  /// the caller.
  void set_grid(ChunkGrid grid) { grid_ = std::move(grid); }
  /// Key prefix of this array's chunks: "path/" or "" at the root.
  std::string KeyPrefix() const { return path_.empty() ? std::string() : path_ + "/"; }

  void Reserve(size_t n);
  void AddRange(uint64_t chunk, uint32_t url, uint64_t offset, uint64_t length) {
    // Inline: readers and unpack add millions of references in a loop.
    chunk_.push_back(chunk);
    url_.push_back(url);
    offset_.push_back(offset);
    length_.push_back(length);
  }
  void AddWholeFile(uint64_t chunk, uint32_t url);
  void AddInline(uint64_t chunk, std::string_view bytes, bool base64);
  void Add(uint64_t chunk, const ChunkRef& ref);
  /// Adds `n` references with unset values at the end and returns the position of the first:
  /// combine fills disjoint runs of them from several threads with SetRange (and SetInline,
  /// on one thread). Every one must be set before the array is used.
  size_t AddUnset(size_t n);
  /// Sets reference `i` (from AddUnset) to a byte range, or a whole file when `length` is
  /// kWholeFileLength. Threads may set distinct references concurrently.
  void SetRange(size_t i, uint64_t chunk, uint32_t url, uint64_t offset, uint64_t length) {
    chunk_[i] = chunk;
    url_[i] = url;
    offset_[i] = offset;
    length_[i] = length;
  }
  /// Sets reference `i` (from AddUnset) to inline bytes. Not thread-safe: appends to the
  /// array's inline data.
  void SetInline(size_t i, uint64_t chunk, std::string_view bytes, bool base64);

  /// Sorts by chunk index and rejects duplicate chunks. Must be called after adding chunks in
  /// any order and before Find(); cheap when already sorted.
  Status Finalize();

  size_t size() const { return chunk_.size(); }
  bool empty() const { return chunk_.empty(); }
  uint64_t chunk_index(size_t i) const { return chunk_[i]; }
  ChunkRef Get(size_t i) const;
  /// Position of a chunk index (binary search), if referenced.
  std::optional<size_t> Find(uint64_t chunk) const;

  /// Raw columns, for codecs that process whole arrays (pack, verify, combine).
  const Column<uint64_t>& chunks() const { return chunk_; }
  const Column<uint32_t>& urls() const { return url_; }
  const Column<uint64_t>& offsets() const { return offset_; }
  const Column<uint64_t>& lengths() const { return length_; }
  Column<uint64_t>& mutable_chunks() { return chunk_; }
  Column<uint32_t>& mutable_urls() { return url_; }
  const std::string& inline_data() const { return inline_data_; }

  /// Bytes of heap memory held (for the memory budget checks in tests and bench).
  size_t MemoryUsage() const;

 private:
  std::string path_;
  ChunkGrid grid_;
  Column<uint64_t> chunk_;
  Column<uint32_t> url_;
  Column<uint64_t> offset_;
  Column<uint64_t> length_;
  std::string inline_data_;
};

/// A value of a non-chunk key.
struct EntryValue {
  enum class Kind : uint8_t {
    kText,       ///< a JSON string (metadata documents, plain inline data)
    kBase64,     ///< "base64:..." inline data; `data` holds the decoded bytes
    kRange,      ///< [url, offset, length]
    kWholeFile,  ///< [url]
    kJson,       ///< any other JSON value, kept as its JSON text
  };
  Kind kind = Kind::kText;
  std::string data;
  uint32_t url = 0;
  uint64_t offset = 0;
  uint64_t length = 0;

  static EntryValue Text(std::string text) { return {Kind::kText, std::move(text)}; }
  bool operator==(const EntryValue&) const = default;
};

struct Entry {
  std::string key;
  EntryValue value;
  bool operator==(const Entry&) const = default;
};

/// A whole reference set: URLs, non-chunk entries and per-array chunk columns.
class ReferenceSet {
 public:
  UrlTable urls;
  std::vector<Entry> entries;
  std::vector<ArrayRefs> arrays;

  /// The entry with this key, if any (linear search: entries are few).
  const Entry* FindEntry(std::string_view key) const;
  Entry* FindEntry(std::string_view key);
  /// Sets the text value of `key`, replacing an existing entry or appending a new one.
  void SetText(std::string_view key, std::string text);
  /// Removes the entry with this key; returns whether it existed.
  bool RemoveEntry(std::string_view key);

  const ArrayRefs* FindArray(std::string_view path) const;
  ArrayRefs* FindArray(std::string_view path);
  /// Adds an array (its .zarray entry is the caller's to add).
  ArrayRefs& AddArray(std::string path, ChunkGrid grid);

  /// Number of chunk references over all arrays.
  uint64_t ChunkCount() const;
  size_t MemoryUsage() const;
  /// Finalizes every array (see ArrayRefs::Finalize), naming the array on error.
  Status Finalize();
};

/// "a/b" for key "a/b/.zarray"; "" for ".zarray" (root array). nullopt if not a .zarray key.
std::optional<std::string_view> ZarrayKeyArrayPath(std::string_view key);

}  // namespace kerchunk
