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

Status VisitArrayEntries(const File& file, const ArrayEntryFormat& format,
                         std::span<const std::byte> bytes, uint64_t first, ChunkOdometer& odometer,
                         std::string_view what, uint64_t where, const ChunkVisitor& visit) {
  const auto* p = reinterpret_cast<const uint8_t*>(bytes.data());
  const uint64_t n = bytes.size() / format.entry_size;
  const unsigned o = file.offset_size();
  odometer.Seek(first);
  for (uint64_t i = 0; i < n; ++i, p += format.entry_size, odometer.Next()) {
    ArrayEntry e = DecodeArrayEntry(p, o, format);
    if (e.address == kUndefinedAddress) continue;
    KERCHUNK_ASSIGN_OR_RETURN(uint64_t offset, ChunkFileOffset(file, e.address, what, where));
    KERCHUNK_RETURN_IF_ERROR(visit(odometer.coords(), offset, e.size, e.filter_mask));
  }
  return OkStatus();
}

}  // namespace kerchunk::hdf5::internal
