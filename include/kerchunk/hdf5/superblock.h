// The HDF5 superblock: where the file's addresses start and how wide they are.
// Format: HDF5 File Format Specification, "II.A. Disk Format: Level 0A - Format Signature and
// Superblock", https://docs.hdfgroup.org/hdf5/develop/_f_m_t3.html#subsec_fmt3_boot_super
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "kerchunk/util/status.h"

namespace kerchunk::hdf5 {

/// HDF5's "undefined address" (all bits set). Addresses read through File::ReadAddress are
/// normalised to this value whatever the size of offsets, so one comparison suffices.
inline constexpr uint64_t kUndefinedAddress = ~uint64_t{0};

/// The fields of a superblock (any version 0..3) that the chunk-index walker needs.
struct Superblock {
  uint8_t version = 0;
  /// Width in bytes of addresses ("size of offsets") and of lengths ("size of lengths"): 2, 4, 8
  /// (1..8 accepted).
  uint8_t size_of_offsets = 8;
  uint8_t size_of_lengths = 8;
  /// File offset of the signature: 0, or 512 * 2^k when a user block precedes the superblock.
  uint64_t superblock_offset = 0;
  /// The file offset that HDF5 addresses are relative to. Like libhdf5 this is the superblock's
  /// own position (a stored base address that disagrees is overridden), so a file that had a
  /// user block prepended after it was written still resolves.
  uint64_t base_address = 0;
  /// The base address field as stored (versions 0..3 all store one).
  uint64_t stored_base_address = 0;
  /// The "end of file address" field as stored, or kUndefinedAddress. The specification calls it
  /// relative, but libhdf5 writes the file size including any user block.
  uint64_t end_of_file_address = kUndefinedAddress;
  /// Versions 2/3: relative address of the superblock extension (an object header), or
  /// kUndefinedAddress.
  uint64_t extension_address = kUndefinedAddress;
  /// Relative address of the root group's object header.
  uint64_t root_object_header_address = kUndefinedAddress;
  /// Versions 0/1: the B-tree K for chunk indexes (default 32; version 0 does not store it).
  uint16_t indexed_storage_k = 32;
};

/// Finds the signature at offset 0, 512, 1024, 2048, ... (as the specification prescribes for
/// user blocks) and parses the superblock there. Does not verify the v2/v3 checksum and does not
/// read the superblock extension. DataLoss when no signature is found or a field is invalid.
Result<Superblock> ReadSuperblock(std::span<const std::byte> file);

}  // namespace kerchunk::hdf5
