// The single chunk index (version 4 layout, indexing type 1): a dataset made of exactly one
// chunk, whose address (and, when filtered, stored size and filter mask) is in the layout
// message itself.
// Format: HDF5 File Format Specification, "IV.A.2.i. The Data Layout Message" (version 4,
// "Single Chunk Index"), and Appendix C "Types of Indexes for Dataset Chunks",
// https://docs.hdfgroup.org/hdf5/develop/_f_m_t3.html#subsubsec_fmt3_dataobject_hdr_msg_layout
#pragma once

#include "kerchunk/hdf5/chunk_geometry.h"
#include "kerchunk/hdf5/data_layout.h"
#include "kerchunk/hdf5/file.h"

namespace kerchunk::hdf5::internal {

/// Visits the one chunk at coordinates (0, ..., 0), unless its address is undefined.
Status WalkSingleChunk(const File& file, const DataLayout& layout, const ChunkGeometry& geometry,
                       const ChunkVisitor& visit);

}  // namespace kerchunk::hdf5::internal
