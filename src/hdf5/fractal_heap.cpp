// Fractal heap object lookup; see the specification link in fractal_heap.h.
//
// The managed space is a doubly-indexed table of `width` columns: rows 0 and 1 hold blocks of
// the starting size, each later row blocks twice the size of the row before. Rows of blocks up
// to the maximum direct block size are direct blocks; larger rows are indirect blocks, each a
// smaller table of the same shape. An object's heap offset picks the row and column at each
// level; offsets count from the start of the direct block, header included.
#include "kerchunk/hdf5/fractal_heap.h"

#include <fmt/format.h>

#include <algorithm>
#include <bit>

#include "kerchunk/hdf5/btree_v2.h"

namespace kerchunk::hdf5 {
namespace {

constexpr int kMaxIndirectDepth = 64;

unsigned Log2(uint64_t v) { return static_cast<unsigned>(std::bit_width(v) - 1); }

// Bytes to store values up to `limit` (libhdf5's H5VM_limit_enc_size).
unsigned LimitEncodedSize(uint64_t limit) { return Log2(limit | 1) / 8 + 1; }

}  // namespace

Result<FractalHeap> FractalHeap::Open(const File& file, uint64_t address) {
  const unsigned o = file.offset_size(), l = file.length_size();
  KERCHUNK_ASSIGN_OR_RETURN(ByteReader r, file.ReaderFrom(address, "fractal heap header"));
  KERCHUNK_RETURN_IF_ERROR(r.ExpectSignature("FRHP"));
  KERCHUNK_ASSIGN_OR_RETURN(uint8_t version, r.U8("version"));
  if (version != 0) return r.Error(fmt::format("expected version 0, got {}", version));
  FractalHeap h;
  h.file_ = &file;
  h.address_ = r.address() - 5;
  KERCHUNK_ASSIGN_OR_RETURN(h.id_length_, r.U16("heap ID length"));
  KERCHUNK_ASSIGN_OR_RETURN(uint16_t filter_length, r.U16("I/O filters' encoded length"));
  KERCHUNK_ASSIGN_OR_RETURN(uint8_t flags, r.U8("flags"));
  h.checksummed_direct_blocks_ = (flags & 0x02) != 0;
  KERCHUNK_ASSIGN_OR_RETURN(uint32_t max_managed, r.U32("maximum size of managed objects"));
  KERCHUNK_RETURN_IF_ERROR(r.Skip(l));  // next huge object ID
  KERCHUNK_ASSIGN_OR_RETURN(h.huge_btree_address_, file.ReadAddress(r, "huge objects B-tree"));
  // Free space, free-space manager, managed space, allocated managed space, iterator offset,
  // managed count, huge size/count, tiny size/count.
  KERCHUNK_RETURN_IF_ERROR(r.Skip(l + o + l + l + l + l + l + l + l + l));
  KERCHUNK_ASSIGN_OR_RETURN(h.table_width_, r.U16("table width"));
  KERCHUNK_ASSIGN_OR_RETURN(h.start_block_size_, file.ReadLength(r, "starting block size"));
  KERCHUNK_ASSIGN_OR_RETURN(h.max_direct_block_size_,
                            file.ReadLength(r, "maximum direct block size"));
  KERCHUNK_ASSIGN_OR_RETURN(h.max_heap_bits_, r.U16("maximum heap size"));
  KERCHUNK_RETURN_IF_ERROR(r.Skip(2));  // starting rows of the root indirect block
  KERCHUNK_ASSIGN_OR_RETURN(h.root_address_, file.ReadAddress(r, "root block address"));
  KERCHUNK_ASSIGN_OR_RETURN(h.root_rows_, r.U16("rows in root indirect block"));
  if (filter_length != 0) {
    return UnsupportedError("fractal heap at address {}: I/O filters on the heap are not read",
                            h.address_);
  }
  const bool power_of_two = std::has_single_bit(h.start_block_size_) &&
                            std::has_single_bit(h.max_direct_block_size_) &&
                            std::has_single_bit(uint64_t{h.table_width_});
  if (!power_of_two || h.max_direct_block_size_ < h.start_block_size_ || h.max_heap_bits_ == 0 ||
      h.max_heap_bits_ > 64) {
    return DataLossError(
        "fractal heap at address {}: table width {}, starting block size {}, maximum direct "
        "block size {} and heap size bits {} do not form a table",
        h.address_, h.table_width_, h.start_block_size_, h.max_direct_block_size_,
        h.max_heap_bits_);
  }
  h.offset_bytes_ = (h.max_heap_bits_ + 7) / 8;
  h.length_bytes_ =
      std::min((Log2(h.max_direct_block_size_) + 7) / 8, LimitEncodedSize(max_managed));
  h.max_direct_rows_ = Log2(h.max_direct_block_size_) - Log2(h.start_block_size_) + 2;
  return h;
}

Result<std::span<const std::byte>> FractalHeap::Object(std::span<const std::byte> id) const {
  ByteReader r(id, 0, "fractal heap ID");
  KERCHUNK_ASSIGN_OR_RETURN(uint8_t first, r.U8("ID flags"));
  if ((first >> 6) != 0) {
    return DataLossError("fractal heap at address {}: heap ID version {}, expected 0", address_,
                         first >> 6);
  }
  switch ((first >> 4) & 0x03) {
    case 0: {
      KERCHUNK_ASSIGN_OR_RETURN(uint64_t offset, r.UVar(offset_bytes_, "object offset"));
      KERCHUNK_ASSIGN_OR_RETURN(uint64_t length, r.UVar(length_bytes_, "object length"));
      return Managed(offset, length);
    }
    case 2: {
      // Tiny object: the length (minus one) in the low bits of the first byte (and, for IDs
      // longer than 18 bytes, of the second), the data after it.
      uint64_t length = (first & 0x0F) + 1u;
      if (id_length_ > 18) {
        KERCHUNK_ASSIGN_OR_RETURN(uint8_t second, r.U8("tiny object length"));
        length = ((uint64_t{first} & 0x0F) << 8 | second) + 1;
      }
      return r.Bytes(length, "tiny object");
    }
    case 1:
      return Huge(r);
    default:
      return DataLossError("fractal heap at address {}: heap ID of reserved type 3", address_);
  }
}

Result<std::span<const std::byte>> FractalHeap::Huge(ByteReader& id) const {
  const unsigned o = file_->offset_size(), l = file_->length_size();
  uint64_t address = kUndefinedAddress, length = 0;
  if (uint64_t{o} + l <= id_length_ - 1u) {
    // The ID holds the object's address and length itself (libhdf5's "huge IDs direct").
    KERCHUNK_ASSIGN_OR_RETURN(address, file_->ReadAddress(id, "huge object address"));
    KERCHUNK_ASSIGN_OR_RETURN(length, file_->ReadLength(id, "huge object length"));
  } else {
    // The ID is a key of the huge objects' v2 B-tree (type 1 records: address, length, ID).
    const unsigned key_width = std::min<unsigned>(id_length_ - 1u, 8);
    KERCHUNK_ASSIGN_OR_RETURN(uint64_t key, id.UVar(key_width, "huge object ID"));
    bool found = false;
    KERCHUNK_RETURN_IF_ERROR(internal::ForEachBTreeV2Record(
        *file_, huge_btree_address_, 1,
        [&](std::span<const std::byte> record, uint64_t at) -> Status {
          ByteReader r(record, at, "huge object record");
          KERCHUNK_ASSIGN_OR_RETURN(uint64_t a, file_->ReadAddress(r, "huge object address"));
          KERCHUNK_ASSIGN_OR_RETURN(uint64_t n, file_->ReadLength(r, "huge object length"));
          KERCHUNK_ASSIGN_OR_RETURN(uint64_t k, file_->ReadLength(r, "huge object ID"));
          if (k == key && !found) {
            address = a;
            length = n;
            found = true;
          }
          return OkStatus();
        }));
    if (!found) {
      return DataLossError("fractal heap at address {}: no huge object with ID {}", address_, key);
    }
  }
  KERCHUNK_ASSIGN_OR_RETURN(ByteReader r, file_->ReaderAt(address, length, "huge heap object"));
  return r.bytes();
}

Result<std::span<const std::byte>> FractalHeap::Managed(uint64_t offset, uint64_t length) const {
  if (root_address_ == kUndefinedAddress) {
    return DataLossError("fractal heap at address {}: object at offset {} in an empty heap",
                         address_, offset);
  }
  if (root_rows_ == 0) {
    return InDirectBlock(root_address_, start_block_size_, 0, offset, length);
  }
  uint64_t block_address = root_address_;
  uint64_t block_offset = 0;
  unsigned rows = root_rows_;
  const uint64_t width = table_width_;
  for (int depth = 0; depth < kMaxIndirectDepth; ++depth) {
    // Find the row and column of `offset` within this indirect block.
    uint64_t rel = offset - block_offset;
    uint64_t row_start = 0, row = 0, block_size = start_block_size_;
    while (true) {
      block_size = row <= 1 ? start_block_size_ : start_block_size_ << (row - 1);
      if (row >= rows || block_size == 0) {
        return DataLossError(
            "fractal heap indirect block at address {}: offset {} lies beyond its {} rows",
            block_address, offset, rows);
      }
      if (rel < row_start + width * block_size) break;
      row_start += width * block_size;
      ++row;
    }
    const uint64_t column = (rel - row_start) / block_size;
    const uint64_t child_offset = block_offset + row_start + column * block_size;
    const uint64_t direct_rows = std::min<uint64_t>(rows, max_direct_rows_);
    const unsigned o = file_->offset_size();
    const uint64_t header = 4 + 1 + o + offset_bytes_;
    uint64_t entry = row * width + column;
    if (row >= direct_rows) entry = direct_rows * width + (row - direct_rows) * width + column;
    KERCHUNK_ASSIGN_OR_RETURN(ByteReader r, file_->ReaderAt(block_address, header + (entry + 1) * o,
                                                            "fractal heap indirect block"));
    KERCHUNK_RETURN_IF_ERROR(r.ExpectSignature("FHIB"));
    KERCHUNK_RETURN_IF_ERROR(r.Skip(header - 4 + entry * o));
    KERCHUNK_ASSIGN_OR_RETURN(uint64_t child, file_->ReadAddress(r, "child block address"));
    if (child == kUndefinedAddress) {
      return DataLossError(
          "fractal heap indirect block at address {}: offset {} is in an unallocated block",
          r.address() - r.position(), offset);
    }
    if (row < direct_rows) return InDirectBlock(child, block_size, child_offset, offset, length);
    block_address = child;
    block_offset = child_offset;
    rows = Log2(block_size) - (Log2(start_block_size_) + Log2(width)) + 1;
  }
  return DataLossError("fractal heap at address {}: indirect blocks nested more than {} deep",
                       address_, kMaxIndirectDepth);
}

Result<std::span<const std::byte>> FractalHeap::InDirectBlock(uint64_t address, uint64_t block_size,
                                                              uint64_t block_offset,
                                                              uint64_t offset,
                                                              uint64_t length) const {
  KERCHUNK_ASSIGN_OR_RETURN(ByteReader r,
                            file_->ReaderAt(address, block_size, "fractal heap direct block"));
  KERCHUNK_RETURN_IF_ERROR(r.ExpectSignature("FHDB"));
  const uint64_t header =
      4 + 1 + file_->offset_size() + offset_bytes_ + (checksummed_direct_blocks_ ? 4 : 0);
  const uint64_t within = offset - block_offset;
  if (within < header || within > block_size || length > block_size - within) {
    return DataLossError(
        "fractal heap direct block at address {}: object at heap offset {} with {} bytes is "
        "outside the block's {} bytes (block offset {})",
        r.address() - r.position(), offset, length, block_size, block_offset);
  }
  KERCHUNK_RETURN_IF_ERROR(r.Seek(within));
  return r.Bytes(length, "object");
}

}  // namespace kerchunk::hdf5
