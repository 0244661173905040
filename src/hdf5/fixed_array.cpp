// Fixed array chunk index; see the specification link in fixed_array.h.
//
// Header "FAHD": version 0, client ID, entry size, page bits, entry count (L), data block
// address (O), checksum. Data block "FADB": version 0, client ID, header address (O), then
// either the entries and a checksum, or (when there are more entries than 2^page bits) a page
// bitmap and a checksum followed by the pages, each holding 2^page bits entries (the last one
// fewer) and its own checksum. Page bit i is bit 7 - i % 8 of byte i / 8 (most significant
// first).
#include "kerchunk/hdf5/fixed_array.h"

#include "kerchunk/hdf5/array_entry.h"

namespace kerchunk::hdf5::internal {
namespace {

struct FixedArrayHeader {
  uint64_t address = 0;  // relative, to check the data block's back pointer
  uint64_t file_offset = 0;
  uint8_t client = 0;
  uint8_t page_bits = 0;
  uint64_t entries = 0;
  uint64_t data_block = kUndefinedAddress;
  ArrayEntryFormat format;
};

uint64_t GridSize(const ChunkGeometry& g) {
  uint64_t n = 1;
  for (unsigned d = 0; d < g.rank; ++d) {
    auto next = g.max_chunks[d] == kUnlimited ? std::nullopt : CheckedMul(n, g.max_chunks[d]);
    n = next ? *next : ~uint64_t{0};
  }
  return n;
}

Result<FixedArrayHeader> ReadHeader(const File& file, uint64_t address, const ChunkGeometry& g) {
  const unsigned o = file.offset_size(), l = file.length_size();
  KERCHUNK_ASSIGN_OR_RETURN(ByteReader r,
                            file.ReaderAt(address, 8 + l + o + 4, "fixed array header"));
  FixedArrayHeader h;
  h.address = address;
  h.file_offset = r.address();
  KERCHUNK_RETURN_IF_ERROR(r.ExpectSignature("FAHD"));
  KERCHUNK_ASSIGN_OR_RETURN(uint8_t version, r.U8("version"));
  if (version != 0) return r.Error(fmt::format("expected version 0, got {}", version));
  KERCHUNK_ASSIGN_OR_RETURN(h.client, r.U8("client ID"));
  KERCHUNK_ASSIGN_OR_RETURN(uint8_t entry_size, r.U8("entry size"));
  KERCHUNK_ASSIGN_OR_RETURN(h.format,
                            ArrayEntryFormat::Make(file, r, h.client, entry_size, g.chunk_bytes));
  KERCHUNK_ASSIGN_OR_RETURN(h.page_bits, r.U8("page bits"));
  KERCHUNK_ASSIGN_OR_RETURN(h.entries, file.ReadLength(r, "entry count"));
  if (h.entries > GridSize(g)) {
    return DataLossError(
        "fixed array header at address {}: expected at most {} entries (the "
        "maximum chunk grid), got {}",
        h.file_offset, GridSize(g), h.entries);
  }
  KERCHUNK_ASSIGN_OR_RETURN(h.data_block, file.ReadAddress(r, "data block address"));
  return h;
}

class FixedArrayWalk {
 public:
  FixedArrayWalk(const File& file, const FixedArrayHeader& h, const ChunkGeometry& g,
                 const ChunkVisitor& visit)
      : file_(file), h_(h), visit_(visit), odometer_(g.rank, g.max_chunks, RowMajorOrder(g.rank)) {}

  Status Run();

 private:
  Status Entries(std::span<const std::byte> bytes, uint64_t first, uint64_t where);

  const File& file_;
  const FixedArrayHeader& h_;
  const ChunkVisitor& visit_;
  ChunkOdometer odometer_;
};

Status FixedArrayWalk::Entries(std::span<const std::byte> bytes, uint64_t first, uint64_t where) {
  return VisitArrayEntries(file_, h_.format, bytes, first, odometer_, "fixed array data block",
                           where, visit_);
}

Status FixedArrayWalk::Run() {
  const unsigned o = file_.offset_size();
  const uint64_t prefix = 6 + o;
  const uint64_t entry = h_.format.entry_size;
  const bool paged = h_.page_bits < 64 && h_.entries > (uint64_t{1} << h_.page_bits);
  const uint64_t page_entries = paged ? uint64_t{1} << h_.page_bits : h_.entries;
  const uint64_t pages = paged ? CeilDiv(h_.entries, page_entries) : 1;
  const uint64_t bitmap = paged ? CeilDiv(pages, 8) : 0;
  auto body = CheckedMul(h_.entries, entry);
  if (!body)
    return DataLossError("fixed array header at address {}: too many entries", h_.file_offset);
  const uint64_t size = prefix + (paged ? bitmap : *body) + 4;
  KERCHUNK_ASSIGN_OR_RETURN(ByteReader r,
                            file_.ReaderAt(h_.data_block, size, "fixed array data block"));
  const uint64_t where = r.address();
  KERCHUNK_RETURN_IF_ERROR(r.ExpectSignature("FADB"));
  KERCHUNK_ASSIGN_OR_RETURN(uint8_t version, r.U8("version"));
  if (version != 0) return r.Error(fmt::format("expected version 0, got {}", version));
  KERCHUNK_ASSIGN_OR_RETURN(uint8_t client, r.U8("client ID"));
  if (client != h_.client) {
    return r.Error(fmt::format("expected client ID {} (as the header), got {}", h_.client, client));
  }
  KERCHUNK_ASSIGN_OR_RETURN(uint64_t header, file_.ReadAddress(r, "header address"));
  if (header != h_.address) {
    return DataLossError(
        "fixed array data block at address {}: expected header address {}, got "
        "{}",
        where, h_.address, header);
  }
  if (!paged) {
    KERCHUNK_ASSIGN_OR_RETURN(auto bytes, r.Bytes(*body, "entries"));
    return Entries(bytes, 0, where);
  }
  KERCHUNK_ASSIGN_OR_RETURN(auto bits, r.Bytes(bitmap, "page bitmap"));
  // Pages follow the block's checksum; all but the last hold page_entries entries.
  uint64_t page_address = h_.data_block + size;
  for (uint64_t page = 0; page < pages; ++page) {
    const uint64_t first = page * page_entries;
    const uint64_t count = std::min(page_entries, h_.entries - first);
    const bool written = (std::to_integer<uint8_t>(bits[page / 8]) & (0x80 >> (page % 8))) != 0;
    if (written) {
      KERCHUNK_ASSIGN_OR_RETURN(
          ByteReader p, file_.ReaderAt(page_address, count * entry + 4, "fixed array data page"));
      KERCHUNK_RETURN_IF_ERROR(Entries(p.bytes().first(count * entry), first, p.address()));
    }
    auto next = CheckedAdd(page_address, page_entries * entry + 4);
    if (!next) return DataLossError("fixed array data block at address {}: pages overflow", where);
    page_address = *next;
  }
  return OkStatus();
}

}  // namespace

Status WalkFixedArray(const File& file, const DataLayout& layout, const ChunkGeometry& geometry,
                      const ChunkVisitor& visit) {
  if (layout.index_address == kUndefinedAddress) return OkStatus();
  KERCHUNK_ASSIGN_OR_RETURN(FixedArrayHeader h, ReadHeader(file, layout.index_address, geometry));
  if (h.data_block == kUndefinedAddress || h.entries == 0) return OkStatus();
  FixedArrayWalk walk(file, h, geometry, visit);
  return walk.Run();
}

}  // namespace kerchunk::hdf5::internal
