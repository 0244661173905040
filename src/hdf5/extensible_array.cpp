// Extensible array chunk index; see the specification link in extensible_array.h.
//
// Header "EAHD": version 0, client ID, element size, max elements bits, index block elements,
// data block min elements, super block min data block pointers, max data block page bits, six
// statistics (L each: super blocks, their size, data blocks, their size, max index set, elements
// realised), index block address (O), checksum.
// Index block "EAIB": version, client ID, header address, the first entries, the addresses of
// the data blocks of the first 2 * log2(min pointers) super blocks, the addresses of the other
// super blocks, checksum.
// Super block "EASB": version, client ID, header address, block offset, page bitmaps (when its
// data blocks are paged), data block addresses, checksum.
// Data block "EADB": version, client ID, header address, block offset, then the entries and a
// checksum, or (paged) a checksum followed by pages of 2^page bits entries, each with a checksum.
#include "kerchunk/hdf5/extensible_array.h"

#include <bit>

#include "kerchunk/hdf5/array_entry.h"

namespace kerchunk::hdf5::internal {
namespace {

constexpr uint64_t kSaturated = ~uint64_t{0};

uint64_t SatAdd(uint64_t a, uint64_t b) { return CheckedAdd(a, b).value_or(kSaturated); }
uint64_t SatMul(uint64_t a, uint64_t b) { return CheckedMul(a, b).value_or(kSaturated); }

// Geometry of super block u (libhdf5's H5EA_sblk_info_t).
struct SuperBlockInfo {
  uint64_t data_blocks = 0;    // 2^floor(u/2)
  uint64_t block_entries = 0;  // entries per data block: 2^ceil(u/2) * min elements
  uint64_t start = 0;          // index of its first entry, not counting the index block's
  uint64_t first_block = 0;    // global index of its first data block
};

struct Header {
  uint64_t address = 0;
  uint64_t file_offset = 0;
  uint8_t client = 0;
  ArrayEntryFormat format;
  uint8_t max_bits = 0;
  uint64_t index_entries = 0;
  uint64_t min_pointers = 0;
  uint64_t page_entries = kSaturated;  // entries per data block page
  uint64_t max_index_set = 0;
  uint64_t index_block = kUndefinedAddress;
  unsigned block_offset_size = 0;  // bytes of the "block offset" fields
  std::vector<SuperBlockInfo> super_blocks;
};

bool IsPowerOfTwo(uint64_t v) { return v != 0 && (v & (v - 1)) == 0; }

Status ReadParams(ByteReader& r, Header& h, uint64_t chunk_bytes, const File& file) {
  KERCHUNK_ASSIGN_OR_RETURN(uint8_t entry_size, r.U8("element size"));
  KERCHUNK_ASSIGN_OR_RETURN(h.format,
                            ArrayEntryFormat::Make(file, r, h.client, entry_size, chunk_bytes));
  KERCHUNK_ASSIGN_OR_RETURN(h.max_bits, r.U8("max elements bits"));
  KERCHUNK_ASSIGN_OR_RETURN(uint8_t index_entries, r.U8("index block elements"));
  KERCHUNK_ASSIGN_OR_RETURN(uint8_t min_entries, r.U8("data block min elements"));
  KERCHUNK_ASSIGN_OR_RETURN(uint8_t min_pointers, r.U8("super block min data pointers"));
  KERCHUNK_ASSIGN_OR_RETURN(uint8_t page_bits, r.U8("max data block page bits"));
  if (h.max_bits == 0 || h.max_bits > 64 || !IsPowerOfTwo(min_entries) ||
      static_cast<unsigned>(std::countr_zero(min_entries)) > h.max_bits ||
      !IsPowerOfTwo(min_pointers) || min_pointers < 2) {
    return r.Error(
        fmt::format("impossible creation parameters: max bits {}, data block min "
                    "elements {}, super block min pointers {}",
                    h.max_bits, min_entries, min_pointers));
  }
  h.index_entries = index_entries;
  h.min_pointers = min_pointers;
  if (page_bits < 64) h.page_entries = uint64_t{1} << page_bits;
  h.block_offset_size = (h.max_bits + 7) / 8;
  const unsigned count = 1 + h.max_bits - std::countr_zero(min_entries);
  uint64_t start = 0, first_block = 0;
  for (unsigned u = 0; u < count; ++u) {
    SuperBlockInfo s;
    s.data_blocks = uint64_t{1} << (u / 2);
    s.block_entries = SatMul(uint64_t{1} << ((u + 1) / 2), min_entries);
    s.start = start;
    s.first_block = first_block;
    start = SatAdd(start, SatMul(s.data_blocks, s.block_entries));
    first_block = SatAdd(first_block, s.data_blocks);
    h.super_blocks.push_back(s);
  }
  return OkStatus();
}

Result<Header> ReadHeader(const File& file, uint64_t address, uint64_t chunk_bytes) {
  const unsigned o = file.offset_size(), l = file.length_size();
  KERCHUNK_ASSIGN_OR_RETURN(ByteReader r,
                            file.ReaderAt(address, 12 + 6 * l + o + 4, "extensible array header"));
  Header h;
  h.address = address;
  h.file_offset = r.address();
  KERCHUNK_RETURN_IF_ERROR(r.ExpectSignature("EAHD"));
  KERCHUNK_ASSIGN_OR_RETURN(uint8_t version, r.U8("version"));
  if (version != 0) return r.Error(fmt::format("expected version 0, got {}", version));
  KERCHUNK_ASSIGN_OR_RETURN(h.client, r.U8("client ID"));
  KERCHUNK_RETURN_IF_ERROR(ReadParams(r, h, chunk_bytes, file));
  KERCHUNK_RETURN_IF_ERROR(r.Skip(4 * uint64_t{l}));  // super/data block counts and sizes
  KERCHUNK_ASSIGN_OR_RETURN(h.max_index_set, file.ReadLength(r, "max index set"));
  KERCHUNK_RETURN_IF_ERROR(r.Skip(l));  // elements realised
  KERCHUNK_ASSIGN_OR_RETURN(h.index_block, file.ReadAddress(r, "index block address"));
  return h;
}

// The order libhdf5 linearises chunk coordinates in: the unlimited dimension first, then the
// others in their order.
Result<std::array<uint8_t, kMaxRank>> SwizzledOrder(const ChunkGeometry& g) {
  std::array<uint8_t, kMaxRank> order{};
  unsigned unlimited = g.rank, count = 0;
  for (unsigned d = 0; d < g.rank; ++d) {
    if (g.max_chunks[d] == kUnlimited) {
      unlimited = d;
      ++count;
    }
  }
  if (count != 1) {
    return InvalidArgumentError(
        "extensible array index: expected exactly one unlimited "
        "dimension, the dataset has {}",
        count);
  }
  order[0] = static_cast<uint8_t>(unlimited);
  for (unsigned d = 0, k = 1; d < g.rank; ++d) {
    if (d != unlimited) order[k++] = static_cast<uint8_t>(d);
  }
  return order;
}

class ExtensibleArrayWalk {
 public:
  ExtensibleArrayWalk(const File& file, const Header& h, const ChunkGeometry& g,
                      const std::array<uint8_t, kMaxRank>& order, const ChunkVisitor& visit)
      : file_(file), h_(h), visit_(visit), odometer_(g.rank, g.max_chunks, order) {}

  Status Run();

 private:
  // Reads the common prefix of an index, super or data block: signature, version, client ID,
  // header address, and (super and data blocks) the block offset. The block offset is skipped,
  // not checked: libhdf5 1.10 writes start + (global data block index) * size for the data
  // blocks listed in the index block, which is not the blocks' first element.
  Status Prefix(ByteReader& r, std::string_view signature, bool has_block_offset);
  Status DataBlock(uint64_t address, uint64_t entries, uint64_t first);
  Status PagedDataBlock(uint64_t address, uint64_t entries, uint64_t first,
                        std::span<const std::byte> bitmap, uint64_t first_bit);
  Status SuperBlock(uint64_t address, const SuperBlockInfo& info);
  Status Entries(std::span<const std::byte> bytes, uint64_t first, uint64_t where);

  const File& file_;
  const Header& h_;
  const ChunkVisitor& visit_;
  ChunkOdometer odometer_;
};

Status ExtensibleArrayWalk::Prefix(ByteReader& r, std::string_view signature,
                                   bool has_block_offset) {
  KERCHUNK_RETURN_IF_ERROR(r.ExpectSignature(signature));
  KERCHUNK_ASSIGN_OR_RETURN(uint8_t version, r.U8("version"));
  if (version != 0) return r.Error(fmt::format("expected version 0, got {}", version));
  KERCHUNK_ASSIGN_OR_RETURN(uint8_t client, r.U8("client ID"));
  if (client != h_.client) {
    return r.Error(fmt::format("expected client ID {} (as the header), got {}", h_.client, client));
  }
  KERCHUNK_ASSIGN_OR_RETURN(uint64_t header, file_.ReadAddress(r, "header address"));
  if (header != h_.address) {
    return r.Error(fmt::format("expected header address {}, got {}", h_.address, header));
  }
  return has_block_offset ? r.Skip(h_.block_offset_size) : OkStatus();
}

Status ExtensibleArrayWalk::Entries(std::span<const std::byte> bytes, uint64_t first,
                                    uint64_t where) {
  return VisitArrayEntries(file_, h_.format, bytes, first, odometer_, "extensible array block",
                           where, visit_);
}

Status ExtensibleArrayWalk::DataBlock(uint64_t address, uint64_t entries, uint64_t first) {
  const uint64_t prefix = 6 + file_.offset_size() + h_.block_offset_size;
  auto body = CheckedMul(entries, h_.format.entry_size);
  if (!body || *body > file_.bytes().size()) {
    return DataLossError(
        "extensible array data block at address {}: {} entries cannot fit in "
        "the file",
        address, entries);
  }
  KERCHUNK_ASSIGN_OR_RETURN(
      ByteReader r, file_.ReaderAt(address, prefix + *body + 4, "extensible array data block"));
  KERCHUNK_RETURN_IF_ERROR(Prefix(r, "EADB", true));
  const uint64_t used = std::min(entries, h_.max_index_set - first);
  KERCHUNK_ASSIGN_OR_RETURN(auto bytes, r.Bytes(used * h_.format.entry_size, "entries"));
  return Entries(bytes, first, r.address());
}

Status ExtensibleArrayWalk::PagedDataBlock(uint64_t address, uint64_t entries, uint64_t first,
                                           std::span<const std::byte> bitmap, uint64_t first_bit) {
  const uint64_t prefix = 6 + file_.offset_size() + h_.block_offset_size + 4;
  KERCHUNK_ASSIGN_OR_RETURN(ByteReader r,
                            file_.ReaderAt(address, prefix, "extensible array data block"));
  KERCHUNK_RETURN_IF_ERROR(Prefix(r, "EADB", true));
  const uint64_t entry = h_.format.entry_size;
  auto page_bytes = CheckedMul(h_.page_entries, entry);
  if (!page_bytes || *page_bytes > file_.bytes().size()) {
    return r.Error("data block pages cannot fit in the file");
  }
  const uint64_t page_size = *page_bytes + 4;
  const uint64_t pages = entries / h_.page_entries;
  for (uint64_t page = 0; page < pages; ++page) {
    const uint64_t page_first = first + page * h_.page_entries;
    if (page_first >= h_.max_index_set) break;
    const uint64_t bit = first_bit + page;
    if ((std::to_integer<uint8_t>(bitmap[bit / 8]) & (0x80 >> (bit % 8))) == 0) continue;
    auto page_offset = CheckedMul(page, page_size);
    auto page_address = page_offset ? CheckedAdd(address, prefix + *page_offset) : std::nullopt;
    if (!page_address) return r.Error("page address overflows");
    KERCHUNK_ASSIGN_OR_RETURN(
        ByteReader p, file_.ReaderAt(*page_address, page_size, "extensible array data block page"));
    const uint64_t used = std::min(h_.page_entries, h_.max_index_set - page_first);
    KERCHUNK_RETURN_IF_ERROR(Entries(p.bytes().first(used * entry), page_first, p.address()));
  }
  return OkStatus();
}

Status ExtensibleArrayWalk::SuperBlock(uint64_t address, const SuperBlockInfo& info) {
  const unsigned o = file_.offset_size();
  const bool paged = info.block_entries > h_.page_entries;
  const uint64_t pages = paged ? info.block_entries / h_.page_entries : 0;
  // libhdf5 sizes the bitmap per data block (rounded up to bytes) but indexes it as one run of
  // bits: bit (data block * pages + page).
  const uint64_t bitmap_size = paged ? SatMul(info.data_blocks, CeilDiv(pages, 8)) : 0;
  const uint64_t pointers = SatMul(info.data_blocks, o);
  const uint64_t size = SatAdd(SatAdd(6 + o + h_.block_offset_size + 4, bitmap_size), pointers);
  KERCHUNK_ASSIGN_OR_RETURN(ByteReader r,
                            file_.ReaderAt(address, size, "extensible array super block"));
  KERCHUNK_RETURN_IF_ERROR(Prefix(r, "EASB", true));
  KERCHUNK_ASSIGN_OR_RETURN(auto bitmap, r.Bytes(bitmap_size, "page bitmap"));
  for (uint64_t k = 0; k < info.data_blocks; ++k) {
    KERCHUNK_ASSIGN_OR_RETURN(uint64_t block, file_.ReadAddress(r, "data block address"));
    const uint64_t first =
        SatAdd(h_.index_entries, SatAdd(info.start, SatMul(k, info.block_entries)));
    if (first >= h_.max_index_set) break;
    if (block == kUndefinedAddress) continue;
    if (paged) {
      KERCHUNK_RETURN_IF_ERROR(PagedDataBlock(block, info.block_entries, first, bitmap, k * pages));
    } else {
      KERCHUNK_RETURN_IF_ERROR(DataBlock(block, info.block_entries, first));
    }
  }
  return OkStatus();
}

Status ExtensibleArrayWalk::Run() {
  const unsigned o = file_.offset_size();
  const uint64_t index_super_blocks = 2 * uint64_t(std::countr_zero(h_.min_pointers));
  const uint64_t data_pointers = 2 * (h_.min_pointers - 1);
  const uint64_t super_pointers =
      h_.super_blocks.size() > index_super_blocks ? h_.super_blocks.size() - index_super_blocks : 0;
  const uint64_t size =
      6 + o + h_.index_entries * h_.format.entry_size + (data_pointers + super_pointers) * o + 4;
  KERCHUNK_ASSIGN_OR_RETURN(ByteReader r,
                            file_.ReaderAt(h_.index_block, size, "extensible array index block"));
  KERCHUNK_RETURN_IF_ERROR(Prefix(r, "EAIB", false));
  KERCHUNK_ASSIGN_OR_RETURN(auto entries,
                            r.Bytes(h_.index_entries * h_.format.entry_size, "entries"));
  const uint64_t used = std::min(h_.index_entries, h_.max_index_set);
  KERCHUNK_RETURN_IF_ERROR(
      Entries(entries.first(used * h_.format.entry_size), 0, r.address() - entries.size()));
  KERCHUNK_ASSIGN_OR_RETURN(auto data_blocks, r.Sub(data_pointers * o, "index block"));
  for (size_t u = 0; u < h_.super_blocks.size(); ++u) {
    const SuperBlockInfo& info = h_.super_blocks[u];
    const uint64_t first = SatAdd(h_.index_entries, info.start);
    if (first >= h_.max_index_set) break;
    if (u >= index_super_blocks) {
      KERCHUNK_RETURN_IF_ERROR(
          r.Seek(r.size() - 4 - (super_pointers - (u - index_super_blocks)) * o));
      KERCHUNK_ASSIGN_OR_RETURN(uint64_t address, file_.ReadAddress(r, "super block address"));
      if (address != kUndefinedAddress) KERCHUNK_RETURN_IF_ERROR(SuperBlock(address, info));
      continue;
    }
    if (info.block_entries > h_.page_entries) {
      return UnsupportedError(
          "extensible array index block at address {}: data blocks listed "
          "in the index block are paged",
          r.address());
    }
    for (uint64_t k = 0; k < info.data_blocks; ++k) {
      KERCHUNK_RETURN_IF_ERROR(data_blocks.Seek((info.first_block + k) * o));
      KERCHUNK_ASSIGN_OR_RETURN(uint64_t address, file_.ReadAddress(data_blocks));
      const uint64_t block_first = SatAdd(first, SatMul(k, info.block_entries));
      if (block_first >= h_.max_index_set) break;
      if (address != kUndefinedAddress) {
        KERCHUNK_RETURN_IF_ERROR(DataBlock(address, info.block_entries, block_first));
      }
    }
  }
  return OkStatus();
}

}  // namespace

Status WalkExtensibleArray(const File& file, const DataLayout& layout,
                           const ChunkGeometry& geometry, const ChunkVisitor& visit) {
  if (layout.index_address == kUndefinedAddress) return OkStatus();
  KERCHUNK_ASSIGN_OR_RETURN(auto order, SwizzledOrder(geometry));
  KERCHUNK_ASSIGN_OR_RETURN(Header h, ReadHeader(file, layout.index_address, geometry.chunk_bytes));
  if (h.index_block == kUndefinedAddress || h.max_index_set == 0) return OkStatus();
  ExtensibleArrayWalk walk(file, h, geometry, order, visit);
  return walk.Run();
}

}  // namespace kerchunk::hdf5::internal
