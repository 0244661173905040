// Global heap collections ("GCOL"): where variable-length data (strings, sequences, the object
// references of DIMENSION_LIST) is stored, addressed by (collection address, object index).
// Format: HDF5 File Format Specification, "III.E. Disk Format: Level 1E - Global Heap",
// https://docs.hdfgroup.org/hdf5/develop/_f_m_t3.html#subsec_fmt3_infra_gheap
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <unordered_map>
#include <utility>

#include "kerchunk/hdf5/file.h"
#include "kerchunk/util/status.h"

namespace kerchunk::hdf5 {

/// A global heap ID as stored in a variable-length element after its 4-byte length.
struct GlobalHeapId {
  uint64_t collection = kUndefinedAddress;
  uint32_t index = 0;
};

/// The bytes of object `id.index` of the collection at `id.collection`. NotFound when the
/// collection has no such object; DataLoss for a malformed collection (wrong signature or
/// version, an object whose size reaches past the collection, a collection past the end of the
/// file).
Result<std::span<const std::byte>> ReadGlobalHeapObject(const File& file, GlobalHeapId id);

/// ReadGlobalHeapObject with each collection indexed once: reading n objects of one collection
/// costs O(size of the collection + n), not O(n * size). Refers to `file`, which must outlive it.
class GlobalHeapReader {
 public:
  explicit GlobalHeapReader(const File& file) : file_(file) {}
  Result<std::span<const std::byte>> Object(GlobalHeapId id);

 private:
  const File& file_;
  std::unordered_map<uint64_t, std::unordered_map<uint32_t, std::span<const std::byte>>> index_;
};

/// Reads a variable-length element: its sequence length (4 bytes) and the global heap ID.
Result<std::pair<uint32_t, GlobalHeapId>> ReadVlenElement(const File& file, ByteReader& r);

}  // namespace kerchunk::hdf5
