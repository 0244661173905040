// Reading a packed file: `kerchunk unpack`, and the C++ API for programs that read through the
// index (resolve a key or a selection to byte ranges without expanding everything).
//
// Open() parses and validates the structure of every generator (counts, ranges, orderings) but
// does not decode chunk lengths; it costs time and memory in proportion to the file, not to
// the number of references it describes. Resolve() decodes from the nearest checkpoint: fewer
// than checkpoint_interval references per key. UnpackAll() decodes everything, checks every
// checkpoint and the checksum of the whole reference set, so corruption that a lookup cannot
// see is still caught before a full output is written.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "kerchunk/refs/digest.h"
#include "kerchunk/refs/reference_set.h"
#include "kerchunk/refs/source_record.h"
#include "kerchunk/util/status.h"

namespace kerchunk::pack {

namespace internal {
struct IndexState;
}

/// The value of one key. Views point into the PackedIndex and are valid while it lives.
struct ResolvedValue {
  EntryValue::Kind kind = EntryValue::Kind::kRange;
  std::string_view url;   ///< kRange, kWholeFile
  uint64_t offset = 0;    ///< kRange
  uint64_t length = 0;    ///< kRange
  std::string_view data;  ///< kText, kJson: the text; kBase64: the decoded bytes
};

struct UnpackOptions {
  /// Refuse files that expand to more references than this (a small packed file can describe
  /// billions of fixed-size chunks; expanding them needs ~30 bytes of memory each).
  uint64_t max_references = uint64_t{1} << 31;
};

struct ExtractOptions {
  /// Also copy every key that is not a chunk (.zgroup, .zarray, .zattrs, ...) and, for each
  /// selection, the chunks of the arrays xarray reads to open it: the dimension coordinates of
  /// its group whole, and the coordinates, grid mapping and bounds it names along the selected
  /// elements. The result then opens with zarr/xarray on its own.
  bool metadata = false;
};

class PackedIndex {
 public:
  /// Reads and validates a packed file, compact (packed_container.h) or JSON ("-": standard
  /// input). InvalidArgument: not JSON or not a
  /// packed file; Unsupported: a newer format version; DataLoss: inconsistent columns (naming the
  /// generator and field); NotFound/IoError: the file.
  static Result<PackedIndex> Open(const std::string& path);
  /// The same for the bytes of a packed file already in memory.
  static Result<PackedIndex> Parse(std::string_view text);
  /// An index over a reference set already read (a plain Kerchunk JSON): the same Resolve()
  /// and entries(), without generators. Its checksum is computed from `refs`, which must be
  /// finalized (ReferenceSet::Finalize, as ParseKerchunkJson returns them).
  static Result<PackedIndex> FromReferences(ReferenceSet refs);

  PackedIndex(PackedIndex&&) noexcept;
  PackedIndex& operator=(PackedIndex&&) noexcept;
  ~PackedIndex();

  /// The value of `key` ("tas/12.3.4", "tas/.zarray", ...), or nullopt when the index has no
  /// such key (an unwritten chunk, or a key of nothing). DataLoss if the data needed is corrupt.
  Result<std::optional<ResolvedValue>> Resolve(std::string_view key) const;

  /// The chunk references a selection needs ("lst[0:10, :, 100:200]", see selection.h), as a
  /// reference set holding that array's chunks only. Time grows with the selection (or, for a
  /// selection larger than the array's references, with those). NotFound for an unknown array.
  Result<ReferenceSet> Select(std::string_view selection) const;

  /// The references of `keys` and `selections` together (duplicates once); keys that resolve to
  /// nothing are left out and counted in `missing` when given.
  Result<ReferenceSet> Extract(std::span<const std::string> keys,
                               std::span<const std::string> selections,
                               const ExtractOptions& options, uint64_t* missing = nullptr) const;

  /// Every key, checked against the recorded checksum (DataLoss on mismatch).
  Result<ReferenceSet> UnpackAll(const UnpackOptions& options = {}) const;

  /// The keys that are not chunks of an array grid (.zgroup, .zarray, .zattrs, inline values,
  /// keys outside any grid), in file order: what a listing needs without expanding chunk keys.
  std::span<const Entry> entries() const;

  /// The checksum recorded in the file.
  const ReferenceDigest& checksum() const;
  /// Number of keys the file expands to (as recorded by its checksum).
  uint64_t key_count() const;
  /// Number of generators and the references they hold.
  size_t generator_count() const;
  uint64_t generated_references() const;

 private:
  explicit PackedIndex(std::unique_ptr<internal::IndexState> state);
  std::unique_ptr<internal::IndexState> state_;
};

/// True when `head` (the first bytes of a file) starts a packed file: the container's magic
/// "KCPK", or {"format": "kerchunk-packed", ... as `kerchunk pack --readable` writes it. Checks
/// nothing more.
bool LooksPacked(std::string_view head);

/// True when the file starts like a packed file (LooksPacked of its first 256 bytes); false for
/// a file that cannot be read (its reader reports why).
bool IsPackedFile(const std::string& path);

/// The record of the source files an index carries (kerchunk/refs/source_record.h), for Kerchunk
/// JSON and packed files in either form.
Result<std::optional<std::vector<SourceFileRecord>>> ReadIndexSourceRecord(const std::string& path);

/// Opens `input`, expands it completely (checksum checked) and writes standard Kerchunk v1 JSON
/// to `output` atomically ("-": standard output). Nothing is written on error.
Status UnpackFile(const std::string& input, const std::string& output,
                  const UnpackOptions& options = {});

}  // namespace kerchunk::pack
