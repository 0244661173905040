// The fixed array index (version 4 layout, indexing type 3): for datasets whose maximum
// dimensions are all fixed. A header ("FAHD") points to one data block ("FADB") holding one
// entry per chunk of the maximum chunk grid, in row-major order; large data blocks are split
// into pages with a bitmap of the pages that were ever written.
// Format: HDF5 File Format Specification, "VII.C. Fixed Array Index" (Appendix C) with the
// header and data block layouts ("Fixed Array Header", "Fixed Array Data Block"),
// https://docs.hdfgroup.org/hdf5/develop/_f_m_t3.html#subsec_fmt3_appendixc_fixedarr
#pragma once

#include "kerchunk/hdf5/chunk_geometry.h"
#include "kerchunk/hdf5/data_layout.h"
#include "kerchunk/hdf5/file.h"

namespace kerchunk::hdf5::internal {

/// Visits the entries with a defined address, skipping unwritten pages. DataLoss (naming the
/// structure and its address) for a wrong signature or version, a data block that does not
/// point back to its header, an entry size that does not match the client (filtered or not),
/// more entries than the dataset's maximum chunk grid has, or a block past the end of the file.
Status WalkFixedArray(const File& file, const DataLayout& layout, const ChunkGeometry& geometry,
                      const ChunkVisitor& visit);

}  // namespace kerchunk::hdf5::internal
