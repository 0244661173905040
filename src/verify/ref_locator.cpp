#include "verify/ref_locator.h"

#include <algorithm>

#include "verify/catalog.h"

namespace kerchunk::verify::internal {

RefLocator::RefLocator(const ReferenceSet& refs) : refs_(refs) {
  array_base_.reserve(refs.arrays.size());
  for (const ArrayRefs& a : refs.arrays) {
    array_base_.push_back(entry_base_);
    entry_base_ += a.size();
  }
}

int64_t RefLocator::ArrayOf(uint64_t ordinal) const {
  if (ordinal >= entry_base_) return -1;
  auto it = std::upper_bound(array_base_.begin(), array_base_.end(), ordinal);
  // Empty arrays share a base with the next one; upper_bound lands after all of them.
  return static_cast<int64_t>(it - array_base_.begin()) - 1;
}

std::string RefLocator::Key(uint64_t ordinal) const {
  const int64_t a = ArrayOf(ordinal);
  if (a < 0) return refs_.entries[ordinal - entry_base_].key;
  const ArrayRefs& array = refs_.arrays[static_cast<size_t>(a)];
  return array.KeyPrefix() + array.grid().Key(array.chunk_index(ordinal - array_base_[a]));
}

std::string RefLocator::CaseName(uint64_t ordinal) const {
  const int64_t a = ArrayOf(ordinal);
  if (a < 0) return std::string(NodePath(refs_.entries[ordinal - entry_base_].key));
  return refs_.arrays[static_cast<size_t>(a)].path();
}

}  // namespace kerchunk::verify::internal
