// Decoding of the entries shared by the fixed and extensible array chunk indexes: the chunk
// address, plus, for filtered datasets ("client ID" 1), the stored size and the filter mask.
// Format: HDF5 File Format Specification, Appendix C, "Fixed Array Data Block" / "Extensible
// Array Data Block" element descriptions for dataset chunks,
// https://docs.hdfgroup.org/hdf5/develop/_f_m_t3.html#sec_fmt3_appendixc
#pragma once

#include <cstdint>
#include <span>
#include <string_view>

#include "kerchunk/hdf5/chunk_geometry.h"
#include "kerchunk/hdf5/file.h"
#include "kerchunk/util/byte_reader.h"

namespace kerchunk::hdf5::internal {

/// How to decode one array entry (a chunk record).
struct ArrayEntryFormat {
  bool filtered = false;     ///< client ID 1: address, size, filter mask
  unsigned size_width = 0;   ///< bytes of the stored size field (filtered only)
  uint64_t entry_size = 0;   ///< bytes per entry
  uint64_t chunk_bytes = 0;  ///< size reported for unfiltered chunks

  /// Checks the client ID and entry size read from an array header; `r` names the header in
  /// errors. The filtered size field is entry_size - offset size - 4 bytes wide, 1..8.
  static Result<ArrayEntryFormat> Make(const File& file, const ByteReader& r, uint8_t client,
                                       uint64_t entry_size, uint64_t chunk_bytes);
};

/// One decoded entry.
struct ArrayEntry {
  uint64_t address = 0;
  uint64_t size = 0;
  uint32_t filter_mask = 0;
};

/// Decodes the entry at `p`, which must hold format.entry_size bytes (checked by the caller).
inline ArrayEntry DecodeArrayEntry(const uint8_t* p, unsigned offset_size,
                                   const ArrayEntryFormat& format) {
  auto le = [](const uint8_t* q, unsigned width) {
    uint64_t v = 0;
    for (unsigned i = 0; i < width; ++i) v |= uint64_t{q[i]} << (8 * i);
    return v;
  };
  ArrayEntry e;
  e.address = le(p, offset_size);
  if (offset_size < 8 && e.address == (uint64_t{1} << (8 * offset_size)) - 1) {
    e.address = kUndefinedAddress;
  }
  if (format.filtered) {
    e.size = le(p + offset_size, format.size_width);
    e.filter_mask = static_cast<uint32_t>(le(p + offset_size + format.size_width, 4));
  } else {
    e.size = format.chunk_bytes;
  }
  return e;
}

/// Visits the chunks of consecutive entries `bytes` (a whole number of entries) whose first has
/// linear index `first`, skipping unallocated ones; `what` and `where` name the block in errors.
/// The loop of both the fixed and the extensible array walkers.
Status VisitArrayEntries(const File& file, const ArrayEntryFormat& format,
                         std::span<const std::byte> bytes, uint64_t first, ChunkOdometer& odometer,
                         std::string_view what, uint64_t where, const ChunkVisitor& visit);

}  // namespace kerchunk::hdf5::internal
