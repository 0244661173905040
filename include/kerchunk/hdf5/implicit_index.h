// The implicit index (version 4 layout, indexing type 2): used for unfiltered datasets with
// early allocation and fixed maximum dimensions. All chunks are allocated at once, contiguously,
// in row-major order over the maximum chunk grid, so a chunk's address is computed, not stored.
// Format: HDF5 File Format Specification, "IV.A.2.i. The Data Layout Message" (version 4,
// "Implicit Index"), and Appendix C "Types of Indexes for Dataset Chunks",
// https://docs.hdfgroup.org/hdf5/develop/_f_m_t3.html#subsubsec_fmt3_dataobject_hdr_msg_layout
#pragma once

#include "kerchunk/hdf5/chunk_geometry.h"
#include "kerchunk/hdf5/data_layout.h"
#include "kerchunk/hdf5/file.h"

namespace kerchunk::hdf5::internal {

/// Visits every chunk of the current shape (as libhdf5 does), at address index_address +
/// (row-major index over the maximum chunk grid) * chunk bytes, with the unfiltered size and
/// filter mask 0. Nothing when index_address is undefined. DataLoss when the chunks of the
/// current shape would reach past the end of the file (which also bounds the walk's work).
Status WalkImplicitIndex(const File& file, const DataLayout& layout, const ChunkGeometry& geometry,
                         const ChunkVisitor& visit);

}  // namespace kerchunk::hdf5::internal
