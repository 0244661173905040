// HDF5's Fletcher-32 checksum filter (H5Zfletcher32.c, H5checksum.c). Kerchunk references point
// at a chunk's bytes without the 4 checksum bytes HDF5 appends, so zarr never sees them;
// `verify --deep` reads the 4 bytes after each such chunk and checks them here.
#pragma once

#include <cstdint>
#include <string_view>

#include "kerchunk/util/status.h"

namespace kerchunk::codecs {

/// Number of checksum bytes HDF5 appends to each filtered chunk.
inline constexpr uint64_t kFletcher32Bytes = 4;

/// HDF5's Fletcher-32 of `data`: sums of big-endian 16-bit words modulo 65535, an odd last byte
/// counting as the high byte of a word; returns (sum2 << 16) | sum1.
uint32_t Fletcher32(std::string_view data);

/// Checks `stored` = payload + 4-byte little-endian checksum, as HDF5 reads it: the checksum
/// must equal Fletcher32(payload), or its byte-pair-swapped form that HDF5 before 1.6.3 wrote.
/// DataLoss naming both values when it does not, or when fewer than 4 bytes are given.
Status VerifyFletcher32(std::string_view stored);

}  // namespace kerchunk::codecs
