// An HDF5 file image as the native chunk-index walker sees it: the bytes plus the superblock
// parameters needed to decode addresses. Every structure parser reads through File so that each
// address is range-checked against the image once, with overflow-checked arithmetic.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string_view>
#include <vector>

#include "kerchunk/hdf5/superblock.h"
#include "kerchunk/util/byte_reader.h"
#include "kerchunk/util/status.h"

namespace kerchunk::hdf5 {

/// A read-only view of a whole HDF5 file (typically MappedFile::bytes()). Cheap to copy; the
/// bytes must outlive it, and the File (or a copy) must outlive every reader it hands out.
class File {
 public:
  /// Parses the superblock of `bytes` (see ReadSuperblock). When the superblock extension holds
  /// a metadata cache image, the File serves a private copy of the bytes with the image's
  /// entries written at their addresses (ReadCacheImageOverlay), so that every structure reader
  /// finds them where libhdf5 does; a block that fails its checks is DataLoss (or Unsupported),
  /// never read half. An unreadable superblock extension is ignored here.
  static Result<File> Open(std::span<const std::byte> bytes);
  /// The bytes exactly as stored, without looking at the superblock extension (no overlay).
  File(std::span<const std::byte> bytes, const Superblock& superblock)
      : bytes_(bytes), superblock_(superblock) {}

  const Superblock& superblock() const { return superblock_; }
  std::span<const std::byte> bytes() const { return bytes_; }
  unsigned offset_size() const { return superblock_.size_of_offsets; }
  unsigned length_size() const { return superblock_.size_of_lengths; }
  /// True when the file carries a metadata cache image (superblock extension message 0x0018):
  /// bytes() is then the overlay described at Open, as large as the file.
  bool has_metadata_cache_image() const { return overlay_ != nullptr; }

  /// File offset of a (relative) HDF5 address: address + base address. DataLoss on overflow or
  /// for the undefined address. Does not check the result against the file size.
  Result<uint64_t> ToFileOffset(uint64_t address, std::string_view what) const;

  /// A reader over the `size` bytes at HDF5 address `address`, named `what` in errors (which must
  /// outlive the reader: pass a string literal). DataLoss "<what> at address A: ... past the end
  /// of the file" when the range is not inside the file. Error addresses are file offsets.
  Result<ByteReader> ReaderAt(uint64_t address, uint64_t size, std::string_view what) const;
  /// A reader from `address` to the end of the file (for structures whose size is only known
  /// after their header has been read).
  Result<ByteReader> ReaderFrom(uint64_t address, std::string_view what) const;

  /// Reads an address field ("size of offsets" wide); all-ones becomes kUndefinedAddress.
  Result<uint64_t> ReadAddress(ByteReader& reader, std::string_view field = "address") const;
  /// The address field at `at` of a record whose length a reader already checked (see
  /// LoadLittleEndian); all-ones becomes kUndefinedAddress.
  uint64_t AddressAt(std::span<const std::byte> record, size_t at) const {
    return UndefinedIfAllOnes(LoadLittleEndianVar(record, at, offset_size()));
  }
  /// Reads a length field ("size of lengths" wide).
  Result<uint64_t> ReadLength(ByteReader& reader, std::string_view field = "length") const {
    return reader.UVar(length_size(), field);
  }

 private:
  uint64_t UndefinedIfAllOnes(uint64_t address) const;

  std::span<const std::byte> bytes_;
  Superblock superblock_;
  // Owns bytes_ when the file carries a metadata cache image; shared by copies of the File.
  std::shared_ptr<const std::vector<std::byte>> overlay_;
};

}  // namespace kerchunk::hdf5
