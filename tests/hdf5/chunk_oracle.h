// Test helpers: the chunks of a dataset as libhdf5 reports them (the oracle) and as the native
// walker reports them, in one comparable form.
#pragma once

#include <cstdint>
#include <ostream>
#include <string>
#include <vector>

#include "kerchunk/hdf5/chunk_index.h"
#include "kerchunk/util/status.h"

namespace kerchunk::testing {

/// One chunk: coordinates in chunk units, absolute file offset, stored size, filter mask.
struct ChunkRecord {
  std::vector<uint64_t> coords;
  uint64_t offset = 0;
  uint64_t size = 0;
  uint32_t mask = 0;
  auto operator<=>(const ChunkRecord&) const = default;
};
std::ostream& operator<<(std::ostream& os, const ChunkRecord& c);

/// Paths of the chunked datasets in an HDF5 file (H5Ovisit over all groups, each object once).
Result<std::vector<std::string>> ListChunkedDatasets(const std::string& path);

/// libhdf5's answer: H5Dget_num_chunks then H5Dget_chunk_info(dset, space, i, ...) for every
/// i (quadratic, fine for tests), offsets made absolute with the user block size. Sorted.
Result<std::vector<ChunkRecord>> LibraryChunks(const std::string& path, const std::string& dset);

/// The dataset's layout and walker inputs, from libhdf5 (H5Oget_info2 addr, extent dims).
Result<hdf5::ChunkedDatasetInfo> DatasetInfo(const std::string& path, const std::string& dset);

/// The native walker's answer over `bytes` (the whole file). Sorted.
Result<std::vector<ChunkRecord>> NativeChunks(std::span<const std::byte> bytes,
                                              const hdf5::ChunkedDatasetInfo& info);
/// Same, mapping `path`.
Result<std::vector<ChunkRecord>> NativeChunks(const std::string& path, const std::string& dset);

/// Reads a whole file.
std::vector<std::byte> ReadBytes(const std::string& path);

}  // namespace kerchunk::testing

namespace kerchunk::testing {

/// Proves each chunk's coordinates with libhdf5's lookup path (the one H5Dread uses):
/// H5Dget_chunk_storage_size and H5Dread_chunk at coords * chunk shape must return the chunk's
/// size, filter mask and exactly the file bytes at its offset. Needed where H5Dget_chunk_info
/// is wrong: in HDF5 1.10.8 it (and H5Dget_chunk_info_by_coord) derive coordinates by counting
/// in plain row-major order while iterating an extensible array, but the array is ordered with
/// the unlimited dimension first, so for an unlimited dimension other than the first they report
/// wrong coordinates (H5Dread is right). Chunks outside the current shape are not checked.
Status VerifyWithReadChunk(const std::string& path, const std::string& dset,
                           std::span<const std::byte> file_bytes,
                           const std::vector<ChunkRecord>& chunks);

}  // namespace kerchunk::testing
