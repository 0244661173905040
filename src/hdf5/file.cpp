// File: bounds-checked access to an HDF5 file image by (relative) HDF5 address.
#include "kerchunk/hdf5/file.h"

#include "kerchunk/hdf5/cache_image.h"

namespace kerchunk::hdf5 {

Result<File> File::Open(std::span<const std::byte> bytes) {
  KERCHUNK_ASSIGN_OR_RETURN(Superblock sb, ReadSuperblock(bytes));
  File file(bytes, sb);
  KERCHUNK_ASSIGN_OR_RETURN(std::optional<std::vector<std::byte>> overlay,
                            ReadCacheImageOverlay(file));
  if (overlay) {
    file.overlay_ = std::make_shared<const std::vector<std::byte>>(std::move(*overlay));
    file.bytes_ = *file.overlay_;
  }
  return file;
}

Result<uint64_t> File::ToFileOffset(uint64_t address, std::string_view what) const {
  if (address == kUndefinedAddress) {
    return DataLossError("{}: the address is undefined", what);
  }
  auto offset = CheckedAdd(address, superblock_.base_address);
  if (!offset) {
    return DataLossError("{} at address {}: address plus base address {} overflows", what, address,
                         superblock_.base_address);
  }
  return *offset;
}

Result<ByteReader> File::ReaderAt(uint64_t address, uint64_t size, std::string_view what) const {
  KERCHUNK_ASSIGN_OR_RETURN(uint64_t offset, ToFileOffset(address, what));
  if (!RangeWithin(offset, size, bytes_.size())) {
    return DataLossError(
        "{} at address {}: {} bytes from there reach past the end of the file "
        "({} bytes)",
        what, offset, size, bytes_.size());
  }
  return ByteReader(bytes_.subspan(offset, size), offset, what);
}

Result<ByteReader> File::ReaderFrom(uint64_t address, std::string_view what) const {
  KERCHUNK_ASSIGN_OR_RETURN(uint64_t offset, ToFileOffset(address, what));
  if (offset >= bytes_.size()) {
    return DataLossError("{} at address {}: past the end of the file ({} bytes)", what, offset,
                         bytes_.size());
  }
  return ByteReader(bytes_.subspan(offset), offset, what);
}

Result<uint64_t> File::ReadAddress(ByteReader& reader, std::string_view field) const {
  KERCHUNK_ASSIGN_OR_RETURN(uint64_t v, reader.UVar(offset_size(), field));
  return UndefinedIfAllOnes(v);
}

uint64_t File::UndefinedIfAllOnes(uint64_t address) const {
  const unsigned width = offset_size();
  const uint64_t all_ones = width >= 8 ? ~uint64_t{0} : (uint64_t{1} << (8 * width)) - 1;
  return address == all_ones ? kUndefinedAddress : address;
}

}  // namespace kerchunk::hdf5
