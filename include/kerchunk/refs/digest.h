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

/// XXH64 of `data` (Yann Collet's xxHash, 64-bit variant), as the digest and its spec use it.
uint64_t Xxh64(std::string_view data, uint64_t seed = 0);

/// The digest of a set of key/value pairs: how many, and two 64-bit sums of item hashes.
struct ReferenceDigest {
  uint64_t keys = 0;
  uint64_t sum = 0;    ///< sum of XXH64(item) mod 2^64
  uint64_t mixed = 0;  ///< sum of fmix64(XXH64(item) ^ kMixKey) mod 2^64

  /// "kcd1:<keys in decimal>:<sum as 16 hex digits><mixed as 16 hex digits>".
  std::string ToString() const;
  /// Parses ToString()'s form; InvalidArgument for anything else.
  static Result<ReferenceDigest> Parse(std::string_view text);

  bool operator==(const ReferenceDigest&) const = default;
};

/// Accumulates items one by one; the order of Add calls does not matter.
class DigestBuilder {
 public:
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
  ReferenceDigest digest_;
  std::string scratch_;
};

/// The digest of every key of `refs` (entries and array chunks).
ReferenceDigest DigestReferences(const ReferenceSet& refs);

}  // namespace kerchunk
