// A canonical checksum of a reference set: what `pack` stores and `unpack`/`verify` recompute to
// prove that an index expands to exactly the references it was made from.
//
// The digest is defined on the key -> value map a Kerchunk file denotes, not on the columnar
// model: the same key/value pairs give the same digest whatever the key order, the URL ids, or
// whether a chunk is held by an ArrayRefs column or as a plain Entry. It is a multiset hash
// (order-independent sums of per-item XXH64 hashes, see docs/packed-format.md "Checksum"), so it
// is computed in one pass without sorting. It detects corruption and bugs; it is not a
// cryptographic signature.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

#include "kerchunk/refs/reference_set.h"
#include "kerchunk/util/status.h"

namespace kerchunk {

/// XXH64 of `data` (Yann Collet's xxHash, 64-bit variant).
uint64_t Xxh64(std::string_view data, uint64_t seed = 0);
/// XXH3_64bits of `data` (xxHash's XXH3, 64-bit result, seed 0).
uint64_t Xxh3(std::string_view data);

/// How items are hashed: "kcd1" with XXH64 (packed files of kerchunk 0.1), "kcd2" with XXH3,
/// about 3x faster on the ~40-byte items of chunk references. Both are read; kcd2 is written.
enum class DigestVersion : uint8_t { kKcd1 = 1, kKcd2 = 2 };
inline constexpr DigestVersion kCurrentDigestVersion = DigestVersion::kKcd2;

/// The digest of a set of key/value pairs: how many, and two 64-bit sums of item hashes.
struct ReferenceDigest {
  DigestVersion version = kCurrentDigestVersion;
  uint64_t keys = 0;
  uint64_t sum = 0;    ///< sum of hash(item) mod 2^64
  uint64_t mixed = 0;  ///< sum of fmix64(hash(item) ^ kMixKey) mod 2^64

  /// "kcd<version>:<keys in decimal>:<sum as 16 hex digits><mixed as 16 hex digits>".
  std::string ToString() const;
  /// Parses ToString()'s form (kcd1 or kcd2); InvalidArgument for anything else.
  static Result<ReferenceDigest> Parse(std::string_view text);

  bool operator==(const ReferenceDigest&) const = default;
};

/// Accumulates items one by one; the order of Add calls does not matter.
class DigestBuilder {
 public:
  explicit DigestBuilder(DigestVersion version = kCurrentDigestVersion) {
    digest_.version = version;
  }
  /// The hash of a URL as range and whole-file payloads hold it (for AddRange's `url_hash`).
  uint64_t UrlHash(std::string_view url) const;

  /// Adds the pair (key, value). Range/whole-file values name URLs by id in `urls`.
  void AddEntry(std::string_view key, const EntryValue& value, const UrlTable& urls);
  /// Adds a chunk reference whose key is `key` and whose URL (for ranges and whole files) is
  /// `url`. Inline data is hashed as its raw bytes plus whether it was written as base64.
  void AddChunk(std::string_view key, const ChunkRef& ref, std::string_view url);
  /// The same for a byte range when the URL's XXH64 is already known (hot loops).
  void AddRange(std::string_view key, uint64_t url_hash, uint64_t offset, uint64_t length);

  ReferenceDigest Finish() const { return digest_; }

 private:
  void AddItem(std::string_view bytes);
  uint64_t Hash(std::string_view bytes) const;
  ReferenceDigest digest_;
  std::string scratch_;
};

/// The digest of every key of `refs` (entries and array chunks).
ReferenceDigest DigestReferences(const ReferenceSet& refs,
                                 DigestVersion version = kCurrentDigestVersion);

}  // namespace kerchunk
