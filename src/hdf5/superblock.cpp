// Superblock versions 0..3; see the specification link in superblock.h.
#include "kerchunk/hdf5/superblock.h"

#include <string_view>

#include "kerchunk/util/byte_reader.h"

namespace kerchunk::hdf5 {
namespace {

constexpr std::string_view kSignature = "\x89HDF\r\n\x1a\n";

bool HasSignatureAt(std::span<const std::byte> file, uint64_t offset) {
  if (!RangeWithin(offset, kSignature.size(), file.size())) return false;
  return std::string_view(reinterpret_cast<const char*>(file.data() + offset), kSignature.size()) ==
         kSignature;
}

Status CheckWidth(const ByteReader& r, unsigned width, std::string_view field) {
  // The specification allows 2, 4, 8 (16 and 32 in theory, which 64-bit readers cannot use).
  if (width != 2 && width != 4 && width != 8) {
    return r.Error(fmt::format("{}: expected 2, 4 or 8, got {}", field, width));
  }
  return OkStatus();
}

// Reads an address of `sb.size_of_offsets` bytes, mapping all-ones to kUndefinedAddress.
Result<uint64_t> Address(ByteReader& r, const Superblock& sb, std::string_view field) {
  KERCHUNK_ASSIGN_OR_RETURN(uint64_t v, r.UVar(sb.size_of_offsets, field));
  uint64_t all_ones =
      sb.size_of_offsets == 8 ? ~uint64_t{0} : (uint64_t{1} << (8 * sb.size_of_offsets)) - 1;
  return v == all_ones ? kUndefinedAddress : v;
}

Status ReadVersion0Or1(ByteReader& r, Superblock& sb) {
  KERCHUNK_RETURN_IF_ERROR(r.Skip(3));  // free-space, root entry versions, reserved
  KERCHUNK_RETURN_IF_ERROR(r.Skip(1));  // shared header message format version
  KERCHUNK_ASSIGN_OR_RETURN(sb.size_of_offsets, r.U8("size of offsets"));
  KERCHUNK_RETURN_IF_ERROR(CheckWidth(r, sb.size_of_offsets, "size of offsets"));
  KERCHUNK_ASSIGN_OR_RETURN(sb.size_of_lengths, r.U8("size of lengths"));
  KERCHUNK_RETURN_IF_ERROR(CheckWidth(r, sb.size_of_lengths, "size of lengths"));
  KERCHUNK_RETURN_IF_ERROR(r.Skip(1 + 2 + 2 + 4));  // reserved, group K values, flags
  if (sb.version == 1) {
    KERCHUNK_ASSIGN_OR_RETURN(sb.indexed_storage_k, r.U16("indexed storage internal node K"));
    KERCHUNK_RETURN_IF_ERROR(r.Skip(2));
  }
  KERCHUNK_ASSIGN_OR_RETURN(sb.stored_base_address, Address(r, sb, "base address"));
  KERCHUNK_RETURN_IF_ERROR(r.Skip(sb.size_of_offsets));  // free-space info address
  KERCHUNK_ASSIGN_OR_RETURN(sb.end_of_file_address, Address(r, sb, "end of file address"));
  KERCHUNK_RETURN_IF_ERROR(r.Skip(sb.size_of_offsets));  // driver information block address
  // Root group symbol table entry: link name offset, then the object header address.
  KERCHUNK_RETURN_IF_ERROR(r.Skip(sb.size_of_offsets));
  KERCHUNK_ASSIGN_OR_RETURN(sb.root_object_header_address,
                            Address(r, sb, "root object header address"));
  return OkStatus();
}

Status ReadVersion2Or3(ByteReader& r, Superblock& sb) {
  KERCHUNK_ASSIGN_OR_RETURN(sb.size_of_offsets, r.U8("size of offsets"));
  KERCHUNK_RETURN_IF_ERROR(CheckWidth(r, sb.size_of_offsets, "size of offsets"));
  KERCHUNK_ASSIGN_OR_RETURN(sb.size_of_lengths, r.U8("size of lengths"));
  KERCHUNK_RETURN_IF_ERROR(CheckWidth(r, sb.size_of_lengths, "size of lengths"));
  KERCHUNK_RETURN_IF_ERROR(r.Skip(1));  // file consistency flags
  KERCHUNK_ASSIGN_OR_RETURN(sb.stored_base_address, Address(r, sb, "base address"));
  KERCHUNK_ASSIGN_OR_RETURN(sb.extension_address, Address(r, sb, "superblock extension address"));
  KERCHUNK_ASSIGN_OR_RETURN(sb.end_of_file_address, Address(r, sb, "end of file address"));
  KERCHUNK_ASSIGN_OR_RETURN(sb.root_object_header_address,
                            Address(r, sb, "root object header address"));
  return r.Skip(4).Annotate("superblock checksum");
}

}  // namespace

Result<Superblock> ReadSuperblock(std::span<const std::byte> file) {
  uint64_t offset = 0;
  while (!HasSignatureAt(file, offset)) {
    offset = offset == 0 ? 512 : offset * 2;
    if (offset >= file.size() || offset > (uint64_t{1} << 62)) {
      return DataLossError(
          "HDF5 superblock: signature not found at offset 0 or 512 * 2^k "
          "within the file's {} bytes",
          file.size());
    }
  }
  ByteReader r(file.subspan(offset), offset, "HDF5 superblock");
  KERCHUNK_RETURN_IF_ERROR(r.Skip(kSignature.size()));
  Superblock sb;
  sb.superblock_offset = offset;
  sb.base_address = offset;
  KERCHUNK_ASSIGN_OR_RETURN(sb.version, r.U8("superblock version"));
  switch (sb.version) {
    case 0:
    case 1:
      KERCHUNK_RETURN_IF_ERROR(ReadVersion0Or1(r, sb));
      break;
    case 2:
    case 3:
      KERCHUNK_RETURN_IF_ERROR(ReadVersion2Or3(r, sb));
      break;
    default:
      return DataLossError("HDF5 superblock at address {}: expected version 0..3, got {}", offset,
                           sb.version);
  }
  return sb;
}

}  // namespace kerchunk::hdf5
