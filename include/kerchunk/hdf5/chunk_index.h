// The native HDF5 chunk-index walker: lists every allocated chunk of a chunked dataset in one
// pass over the file's own index structures (v1 B-tree, single chunk, implicit, fixed array,
// extensible array, v2 B-tree), instead of libhdf5's H5Dget_chunk_info, which restarts the index
// iteration for every chunk (O(n^2) for n chunks in HDF5 1.10).
//
// Usage:
//   KERCHUNK_ASSIGN_OR_RETURN(auto mapped, MappedFile::Open(path));
//   KERCHUNK_ASSIGN_OR_RETURN(auto file, hdf5::File::Open(mapped.bytes()));
//   KERCHUNK_ASSIGN_OR_RETURN(auto layout, hdf5::ReadDataLayout(file, info.object_header_address));
//   KERCHUNK_RETURN_IF_ERROR(hdf5::WalkChunkIndex(file, layout, info,
//       [&](std::span<const uint64_t> coords, uint64_t offset, uint64_t size, uint32_t mask) {
//         ...; return OkStatus();
//       }));
#pragma once

#include "kerchunk/hdf5/chunk_geometry.h"
#include "kerchunk/hdf5/data_layout.h"
#include "kerchunk/hdf5/file.h"
#include "kerchunk/util/status.h"

namespace kerchunk::hdf5 {

/// Calls `visit` once per allocated chunk of the chunked dataset described by `layout` (see
/// ReadDataLayout) and `info` (its current and maximum shape, from libhdf5). Chunks that were
/// never written are not reported: undefined addresses in array indexes, unwritten pages, an
/// unallocated index. Order is the index's own (not sorted). Reads only index structures, each
/// once, through bounds-checked readers; does not verify checksums, and does not check that the
/// chunks' bytes lie inside the file (verify does). Errors: InvalidArgument when the layout is
/// not chunked or info's rank differs from the layout's; DataLoss naming the structure and its
/// file offset for corrupt or truncated index bytes; the visitor's own error, unchanged.
Status WalkChunkIndex(const File& file, const DataLayout& layout, const ChunkedDatasetInfo& info,
                      const ChunkVisitor& visit);

}  // namespace kerchunk::hdf5
