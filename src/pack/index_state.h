// What a PackedIndex holds: the embedded Kerchunk document as a reference set, the URLs, the
// validated generators, and lookup tables from keys and array paths to them.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "generator_decoder.h"
#include "inline_values.h"
#include "kerchunk/pack/packed_index.h"
#include "kerchunk/refs/reference_set.h"

namespace kerchunk::pack::internal {

struct IndexState {
  /// Which generator variable an array of `base` is.
  struct Membership {
    size_t generator;
    uint64_t var;
  };

  /// Builds and cross-checks the state of a parsed file.
  static Result<std::unique_ptr<IndexState>> Make(PackedContents contents);
  /// The state of a plain reference set: everything in `base`, no generators.
  static Result<std::unique_ptr<IndexState>> FromReferences(ReferenceSet refs);

  /// The array (index into base.arrays) and chunk a key addresses, if it is a canonical
  /// in-grid chunk key: the same rule as the Kerchunk JSON reader's.
  std::optional<std::pair<size_t, uint64_t>> FindChunk(std::string_view key) const;

  /// The ResolvedValue of reference `ref` of a generator.
  ResolvedValue Generated(const DecodedRef& ref) const {
    return {EntryValue::Kind::kRange, urls[ref.url], ref.offset, ref.length, {}};
  }

  ReferenceSet base;  // the embedded document: metadata, verbatim values and refs
  std::vector<std::string> urls;
  std::vector<GeneratorDecoder> generators;
  std::vector<std::unique_ptr<InlineDecoder>> inline_values;
  std::vector<const InlineDecoder*> inline_of;  // per base.arrays, or nullptr
  uint64_t inlined = 0;                         // values held by inline_values
  ReferenceDigest checksum;
  uint64_t generated = 0;                                     // references held by generators
  std::vector<std::optional<Membership>> membership;          // per base.arrays
  std::unordered_map<std::string, size_t> array_by_path;      // -> base.arrays
  std::unordered_map<std::string_view, size_t> entry_by_key;  // -> base.entries

 private:
  Status IndexGenerators();
  Status IndexInlineValues();
};

/// The value of a verbatim chunk of `base`.
ResolvedValue VerbatimChunk(const ReferenceSet& base, const ArrayRefs& array, size_t row);

}  // namespace kerchunk::pack::internal
