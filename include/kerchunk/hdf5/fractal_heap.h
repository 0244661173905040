// Fractal heaps ("FRHP" header, "FHDB" direct blocks, "FHIB" indirect blocks): where new-style
// groups keep their link messages and objects keep dense attributes and shared messages.
// Objects are found by heap ID: managed objects by (offset, length) in the heap's address
// space, tiny objects inside the ID itself, huge objects (unfiltered) by the address in their ID
// or through the heap's v2 B-tree of huge objects. Filtered heaps are not read.
// Format: HDF5 File Format Specification, "III.G. Disk Format: Level 1G - Fractal Heap",
// https://docs.hdfgroup.org/hdf5/develop/_f_m_t3.html#subsec_fmt3_infra_fractalheap
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "kerchunk/hdf5/file.h"
#include "kerchunk/util/byte_reader.h"
#include "kerchunk/util/status.h"

namespace kerchunk::hdf5 {

class FractalHeap {
 public:
  /// Reads and checks the header at `address`. Unsupported for a heap with I/O filters. The heap
  /// refers to `file`, which must outlive it.
  static Result<FractalHeap> Open(const File& file, uint64_t address);

  /// The bytes of the object with heap ID `id` (heap_id_length() bytes). DataLoss for an ID or
  /// block structure that points outside the heap or the file.
  Result<std::span<const std::byte>> Object(std::span<const std::byte> id) const;

  unsigned heap_id_length() const { return id_length_; }

 private:
  Result<std::span<const std::byte>> Huge(ByteReader& id) const;
  Result<std::span<const std::byte>> Managed(uint64_t offset, uint64_t length) const;
  Result<std::span<const std::byte>> InDirectBlock(uint64_t address, uint64_t block_size,
                                                   uint64_t block_offset, uint64_t offset,
                                                   uint64_t length) const;

  const File* file_ = nullptr;
  uint64_t address_ = 0;
  uint16_t id_length_ = 0;
  bool checksummed_direct_blocks_ = false;
  uint16_t table_width_ = 0;
  uint64_t start_block_size_ = 0;
  uint64_t max_direct_block_size_ = 0;
  uint16_t max_heap_bits_ = 0;
  uint64_t root_address_ = kUndefinedAddress;
  uint64_t huge_btree_address_ = kUndefinedAddress;
  uint16_t root_rows_ = 0;
  unsigned offset_bytes_ = 0;  // bytes of a heap offset (in IDs and block headers)
  unsigned length_bytes_ = 0;  // bytes of a managed object's length in IDs
  unsigned max_direct_rows_ = 0;
};

}  // namespace kerchunk::hdf5
