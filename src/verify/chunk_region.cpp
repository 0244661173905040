#include "verify/chunk_region.h"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cstring>

namespace kerchunk::verify::internal {
namespace {

template <typename T>
T Load(std::string_view bytes, bool big) {
  std::string b(bytes.substr(0, sizeof(T)));
  if (big != (std::endian::native == std::endian::big)) std::reverse(b.begin(), b.end());
  T v;
  std::memcpy(&v, b.data(), sizeof(T));
  return v;
}

}  // namespace

ChunkRegion RegionOf(const ChunkGrid& grid, uint64_t linear) {
  ChunkRegion r;
  std::vector<uint64_t> coords(grid.rank());
  grid.Coords(linear, coords);
  for (size_t d = 0; d < grid.rank(); ++d) {
    const uint64_t start = coords[d] * grid.chunks()[d];
    r.start.push_back(start);
    r.count.push_back(std::min(grid.chunks()[d], grid.shape()[d] - start));
  }
  return r;
}

std::vector<uint64_t> Unravel(uint64_t index, const std::vector<uint64_t>& count) {
  std::vector<uint64_t> out(count.size());
  for (size_t d = count.size(); d-- > 0;) {
    out[d] = count[d] == 0 ? 0 : index % count[d];
    index = count[d] == 0 ? 0 : index / count[d];
  }
  return out;
}

uint64_t ChunkOffsetOf(uint64_t index, const std::vector<uint64_t>& count,
                       const std::vector<uint64_t>& chunk_shape, uint64_t itemsize) {
  const std::vector<uint64_t> coords = Unravel(index, count);
  uint64_t linear = 0;
  for (size_t d = 0; d < coords.size(); ++d) linear = linear * chunk_shape[d] + coords[d];
  return linear * itemsize;
}

std::string_view ElementAt(std::string_view bytes, uint64_t index, uint64_t itemsize) {
  return bytes.substr(index * itemsize, itemsize);
}

std::optional<uint64_t> FirstDifference(std::string_view decoded_chunk,
                                        const std::vector<uint64_t>& chunk_shape,
                                        std::string_view region_bytes,
                                        const std::vector<uint64_t>& count, uint64_t itemsize) {
  if (count.empty()) {
    return decoded_chunk.substr(0, itemsize) == region_bytes.substr(0, itemsize)
               ? std::nullopt
               : std::optional<uint64_t>(0);
  }
  // Compare row by row: a row is a run along the last dimension, contiguous in both buffers.
  const size_t rank = count.size();
  const uint64_t row = count[rank - 1] * itemsize;
  uint64_t rows = 1;
  for (size_t d = 0; d + 1 < rank; ++d) rows *= count[d];
  for (uint64_t r = 0; r < rows; ++r) {
    const uint64_t first = r * count[rank - 1];
    const uint64_t chunk_offset = ChunkOffsetOf(first, count, chunk_shape, itemsize);
    const std::string_view a = decoded_chunk.substr(chunk_offset, row);
    const std::string_view b = region_bytes.substr(first * itemsize, row);
    if (a == b) continue;
    for (uint64_t i = 0; i < count[rank - 1]; ++i) {
      if (a.substr(i * itemsize, itemsize) != b.substr(i * itemsize, itemsize)) return first + i;
    }
    return first;
  }
  return std::nullopt;
}

std::string FormatElement(std::string_view bytes, const DtypeInfo& dtype) {
  const bool big = dtype.order == '>';
  if (bytes.size() == dtype.itemsize) {
    switch (dtype.kind) {
      case 'f':
        if (dtype.itemsize == 4) return fmt::format("{}", Load<float>(bytes, big));
        if (dtype.itemsize == 8) return fmt::format("{}", Load<double>(bytes, big));
        break;
      case 'i':
        if (dtype.itemsize == 1) return fmt::format("{}", static_cast<int8_t>(bytes[0]));
        if (dtype.itemsize == 2) return fmt::format("{}", Load<int16_t>(bytes, big));
        if (dtype.itemsize == 4) return fmt::format("{}", Load<int32_t>(bytes, big));
        if (dtype.itemsize == 8) return fmt::format("{}", Load<int64_t>(bytes, big));
        break;
      case 'u':
        if (dtype.itemsize == 1) return fmt::format("{}", static_cast<uint8_t>(bytes[0]));
        if (dtype.itemsize == 2) return fmt::format("{}", Load<uint16_t>(bytes, big));
        if (dtype.itemsize == 4) return fmt::format("{}", Load<uint32_t>(bytes, big));
        if (dtype.itemsize == 8) return fmt::format("{}", Load<uint64_t>(bytes, big));
        break;
      default:
        break;
    }
  }
  std::string hex = "0x";
  for (size_t i = 0; i < std::min<size_t>(bytes.size(), 16); ++i) {
    hex += fmt::format("{:02x}", static_cast<uint8_t>(bytes[i]));
  }
  if (bytes.size() > 16) hex += "...";
  return hex;
}

std::string FormatRegion(const ChunkRegion& region) {
  std::vector<std::string> parts;
  for (size_t d = 0; d < region.start.size(); ++d) {
    parts.push_back(fmt::format("{}:{}", region.start[d], region.start[d] + region.count[d]));
  }
  return fmt::format("[{}]", fmt::join(parts, ", "));
}

}  // namespace kerchunk::verify::internal
