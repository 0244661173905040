// The metadata cache image: when a file is written with H5Pset_mdc_image_config, libhdf5
// serialises its metadata cache at close (object headers, B-tree nodes, heaps, chunk index
// blocks, ...) into one block, and does not write those entries at their own addresses (1.10.8
// leaves zeros there). A reader must take each entry from the block, as libhdf5 does on open.
// Format: the Metadata Cache Image message (0x0018), which only the superblock extension holds
// (HDF5 File Format Specification 3.0, "II.C. Disk Format: Level 0C - Superblock Extension",
// https://docs.hdfgroup.org/hdf5/develop/_f_m_t3.html#subsec_fmt3_boot_superext): version 0,
// block address (O), block length (L). The block itself is not in the specification; its layout
// is libhdf5's (src/H5Cimage.c, H5C__decode_cache_image_header and
// H5C__reconstruct_cache_entry): "MDCI", version 0, flags, data length (L), entry count (4);
// per entry a fixed header, its flush dependency parents' addresses and its image; then a
// Jenkins lookup3 checksum of everything before it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "kerchunk/hdf5/file.h"
#include "kerchunk/util/byte_reader.h"
#include "kerchunk/util/status.h"

namespace kerchunk::hdf5 {

/// Header message type of the metadata cache image message.
inline constexpr uint16_t kMetadataCacheImageMessage = 0x0018;

/// Where the cache image block lies (the content of message 0x0018).
struct CacheImageLocation {
  uint64_t address = kUndefinedAddress;  ///< HDF5 (relative) address of the block
  uint64_t length = 0;                   ///< bytes, checksum included
};

/// One metadata cache entry kept in the block.
struct CacheImageEntry {
  /// libhdf5's cache client id (5: object header, 0: v1 B-tree node, ...), for messages only.
  uint8_t type = 0;
  /// HDF5 (relative) address of the structure the image belongs at.
  uint64_t address = 0;
  /// The structure's bytes, inside the block.
  std::span<const std::byte> image;
};

/// Decodes a metadata cache image message. DataLoss for a truncated message or an undefined
/// block address; Unsupported for a version other than 0.
Result<CacheImageLocation> DecodeCacheImageMessage(const File& file, ByteReader message);

/// Reads the block at `where`: checks the checksum first (one flipped byte could otherwise move
/// an entry and so a chunk), then the header (its data length must equal `where.length`, as
/// libhdf5 requires) and every entry, which must fill the block exactly. Entries are returned in
/// block order; their addresses are not checked here (see OverlayCacheImage). DataLoss naming the
/// block's file offset; Unsupported for a block version other than 0 or saved resize status.
Result<std::vector<CacheImageEntry>> ReadCacheImageBlock(const File& file,
                                                         const CacheImageLocation& where);

/// A copy of the file's bytes with each entry's image written at its address: the bytes libhdf5
/// reads after loading the image. DataLoss naming the file offset when an entry reaches past the
/// end of the file or overlaps another entry or the block itself.
Result<std::vector<std::byte>> OverlayCacheImage(const File& file, const CacheImageLocation& where,
                                                 std::span<const CacheImageEntry> entries);

/// The overlay (see OverlayCacheImage) when the file's superblock extension holds a metadata
/// cache image message; nullopt when there is no extension, no such message, or the extension
/// cannot be read (nothing else this reader needs lives there).
Result<std::optional<std::vector<std::byte>>> ReadCacheImageOverlay(const File& file);

}  // namespace kerchunk::hdf5
