// The elements a zarr chunk covers, and comparing a decoded chunk with the same elements read
// by a library. zarr v2 stores edge chunks at full chunk size, padded past the array's end;
// only the part inside the array is compared.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kerchunk/refs/chunk_grid.h"
#include "verify/zarray_rules.h"

namespace kerchunk::verify::internal {

/// Elements [start, start + count) of the array.
struct ChunkRegion {
  std::vector<uint64_t> start;
  std::vector<uint64_t> count;
};

/// The region of chunk `linear` of `grid`: start = coords * chunks, count clipped to the shape.
ChunkRegion RegionOf(const ChunkGrid& grid, uint64_t linear);

/// Row-major index within the region of the first element whose bytes differ between a decoded
/// full chunk (`chunk_shape`, C order) and `region_bytes` (the region's elements, C order), or
/// nullopt when they are equal.
std::optional<uint64_t> FirstDifference(std::string_view decoded_chunk,
                                        const std::vector<uint64_t>& chunk_shape,
                                        std::string_view region_bytes,
                                        const std::vector<uint64_t>& count, uint64_t itemsize);

/// The element at row-major `index` of a C-order buffer: its bytes.
std::string_view ElementAt(std::string_view bytes, uint64_t index, uint64_t itemsize);
/// Byte offset in a full decoded chunk of the region element at row-major `index`.
uint64_t ChunkOffsetOf(uint64_t index, const std::vector<uint64_t>& count,
                       const std::vector<uint64_t>& chunk_shape, uint64_t itemsize);

/// Coordinates of row-major `index` in an array of shape `count`.
std::vector<uint64_t> Unravel(uint64_t index, const std::vector<uint64_t>& count);

/// One element for messages: its number for integer and float dtypes, else its bytes in hex.
std::string FormatElement(std::string_view bytes, const DtypeInfo& dtype);

/// "[0:10, 20:30]" for a region.
std::string FormatRegion(const ChunkRegion& region);

}  // namespace kerchunk::verify::internal
