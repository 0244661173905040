// Local heaps ("HEAP"): the names of the links of an old-style (symbol table) group.
// Format: HDF5 File Format Specification, "III.D. Disk Format: Level 1D - Local Heaps",
// https://docs.hdfgroup.org/hdf5/develop/_f_m_t3.html#subsec_fmt3_infra_lheap
#pragma once

#include <cstdint>
#include <string_view>

#include "kerchunk/hdf5/file.h"
#include "kerchunk/util/status.h"

namespace kerchunk::hdf5 {

/// A local heap's data segment.
class LocalHeap {
 public:
  /// Reads the heap header at `address` and checks that its data segment is inside the file.
  static Result<LocalHeap> Open(const File& file, uint64_t address);

  /// The NUL-terminated string at `offset` in the data segment (without the NUL). DataLoss
  /// when the offset is outside the segment or the string has no NUL inside it.
  Result<std::string_view> StringAt(uint64_t offset) const;

 private:
  std::string_view data_;
  uint64_t data_offset_ = 0;  // file offset of the data segment, for messages
};

}  // namespace kerchunk::hdf5
