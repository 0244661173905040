// Chunk listing and references shared by both translators; see chunk_references.h.
#include "hdf5/chunk_references.h"

#include <fmt/format.h>

#include "kerchunk/hdf5/chunk_index.h"
#include "kerchunk/util/checked_math.h"

namespace kerchunk::hdf5::internal {

Result<StoredChunks> ListChunks(const File& file, const ChunkedDatasetInfo& info,
                                const ChunkGrid& grid, bool filtered, bool fletcher32) {
  KERCHUNK_ASSIGN_OR_RETURN(DataLayout layout, ReadDataLayout(file, info.object_header_address));
  StoredChunks out;
  const auto& counts = grid.counts();
  // Layout flag bit 0 (H5D_CHUNK_DONT_FILTER_PARTIAL_CHUNKS): partial edge chunks are stored
  // raw although the filter mask says 0, so the zarr filter list does not apply to them.
  const bool raw_edge_chunks = filtered && (layout.flags & 0x1) != 0;
  auto is_partial_edge = [&](std::span<const uint64_t> coords) {
    for (size_t d = 0; d < coords.size(); ++d) {
      if ((coords[d] + 1) * grid.chunks()[d] > grid.shape()[d]) return true;
    }
    return false;
  };
  KERCHUNK_RETURN_IF_ERROR(WalkChunkIndex(
      file, layout, info,
      [&](std::span<const uint64_t> coords, uint64_t offset, uint64_t size,
          uint32_t mask) -> Status {
        for (size_t d = 0; d < coords.size(); ++d) {
          if (coords[d] >= counts[d]) return OkStatus();  // outside the current shape
        }
        const uint64_t linear = grid.Linear(coords);
        if (mask != 0 && out.unsupported_reason.empty()) {
          out.unsupported_reason = fmt::format(
              "chunk {} at offset {} is stored with filter mask 0x{:x} (a filter was skipped)",
              grid.Key(linear), offset, mask);
        }
        if (raw_edge_chunks && out.unsupported_reason.empty() && is_partial_edge(coords)) {
          out.unsupported_reason = fmt::format(
              "partial edge chunk {} at offset {} is stored unfiltered (the dataset does not "
              "filter partial edge chunks), which a zarr filter list cannot describe",
              grid.Key(linear), offset);
        }
        if (fletcher32) {
          if (size < 4) {
            return DataLossError(
                "chunk {} at offset {}: {} bytes cannot hold a fletcher32 checksum",
                grid.Key(linear), offset, size);
          }
          size -= 4;
        }
        out.chunks.push_back({linear, offset, size});
        return OkStatus();
      }));
  return out;
}

namespace {

bool IsAscii(std::string_view s) {
  for (char c : s) {
    if (static_cast<unsigned char>(c) >= 0x80) return false;
  }
  return true;
}

}  // namespace

Status AddChunkReferences(const FileScanOptions& options, std::span<const std::byte> bytes,
                          FileScanResult& result, const StoredChunks& stored, ArrayRefs& array) {
  const uint64_t threshold = options.inline_threshold;
  array.Reserve(array.size() + stored.chunks.size());
  for (const StoredChunk& c : stored.chunks) {
    if (c.length < threshold) {
      if (!RangeWithin(c.offset, c.length, bytes.size())) {
        return DataLossError("chunk {} at offset {} with {} bytes lies past the end of the file",
                             array.grid().Key(c.linear), c.offset, c.length);
      }
      std::string_view data(reinterpret_cast<const char*>(bytes.data()) + c.offset, c.length);
      array.AddInline(c.linear, data, /*base64=*/!IsAscii(data));
    } else {
      array.AddRange(c.linear, /*url=*/0, c.offset, c.length);
      result.referenced_bytes += c.length;
    }
  }
  return OkStatus();
}

}  // namespace kerchunk::hdf5::internal
