// Numbers every byte-range-bearing value of a reference set (array chunks, then entries) so the
// checks that sort references (overlaps, reads in file order) can name the key of each.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "kerchunk/refs/reference_set.h"

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
