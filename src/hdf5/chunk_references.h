// Where a dataset's stored chunks are (the native index walker) and how they become references
// (inline below the threshold). Shared by both translators. Internal to the HDF5 translator.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "kerchunk/formats/format_scanner.h"
#include "kerchunk/hdf5/chunk_geometry.h"
#include "kerchunk/hdf5/file.h"
#include "kerchunk/refs/chunk_grid.h"
#include "kerchunk/refs/reference_set.h"
#include "kerchunk/util/status.h"

namespace kerchunk::hdf5::internal {

/// One stored chunk: its linear index on the zarr grid and its bytes in the file.
struct StoredChunk {
  uint64_t linear = 0;
  uint64_t offset = 0;  ///< absolute file offset
  uint64_t length = 0;  ///< bytes a zarr reader decodes (without a fletcher32 checksum)
};

struct StoredChunks {
  std::vector<StoredChunk> chunks;
  /// Non-empty when some chunk cannot be decoded by zarr (a filter was skipped for it).
  std::string unsupported_reason;
};

/// Every allocated chunk of a chunked dataset inside the current shape (chunks beyond it, left
/// from a shrink, are dropped), via the native index walker. With `fletcher32` the 4-byte
/// checksum is cut off each chunk. A chunk stored with a non-zero filter mask makes the result
/// unsupported (the first such chunk is named), and so does a partial edge chunk of a filtered
/// dataset that does not filter partial edge chunks (`filtered`: the pipeline is not empty).
Result<StoredChunks> ListChunks(const File& file, const ChunkedDatasetInfo& info,
                                const ChunkGrid& grid, bool filtered, bool fletcher32);

/// Adds the chunks as references to url id 0, or inline (text when ASCII, else base64) when
/// shorter than options.inline_threshold; counts referenced bytes in `result`. `bytes` is the
/// file image.
Status AddChunkReferences(const FileScanOptions& options, std::span<const std::byte> bytes,
                          FileScanResult& result, const StoredChunks& stored, ArrayRefs& array);

}  // namespace kerchunk::hdf5::internal
