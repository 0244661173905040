// Fixed/extensible array chunk entries; see the specification link in array_entry.h.
#include "kerchunk/hdf5/array_entry.h"

namespace kerchunk::hdf5::internal {

Result<ArrayEntryFormat> ArrayEntryFormat::Make(const File& file, const ByteReader& r,
                                                uint8_t client, uint64_t entry_size,
                                                uint64_t chunk_bytes) {
  ArrayEntryFormat f;
  f.entry_size = entry_size;
  f.chunk_bytes = chunk_bytes;
  const unsigned o = file.offset_size();
  if (client == 0) {
    if (entry_size != o) {
      return r.Error(
          fmt::format("unfiltered chunk entries: expected entry size {}, got {}", o, entry_size));
    }
    return f;
  }
  if (client != 1) {
    return r.Error(fmt::format("expected client ID 0 or 1 (dataset chunks), got {}", client));
  }
  f.filtered = true;
  if (entry_size < o + 4 + 1 || entry_size > o + 4 + 8) {
    return r.Error(fmt::format("filtered chunk entries: expected entry size {}..{}, got {}", o + 5,
                               o + 12, entry_size));
  }
  f.size_width = static_cast<unsigned>(entry_size - o - 4);
  return f;
}

}  // namespace kerchunk::hdf5::internal
