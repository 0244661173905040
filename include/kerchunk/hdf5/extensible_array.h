// The extensible array index (version 4 layout, indexing type 4): for datasets with exactly one
// unlimited dimension. A header ("EAHD") points to an index block ("EAIB") holding the first few
// entries, the addresses of the first data blocks ("EADB") and of super blocks ("EASB"), which
// in turn list data blocks; large data blocks are split into pages whose "initialised" bits sit
// in the super block. Entries are chunks in row-major order over the maximum chunk grid with the
// unlimited dimension moved to the front (libhdf5 "swizzles" it to be the slowest).
// Format: HDF5 File Format Specification, "VII.D. Extensible Array Index" (Appendix C) with the
// header, index block, super block and data block layouts,
// https://docs.hdfgroup.org/hdf5/develop/_f_m_t3.html#subsec_fmt3_appendixc_extarr
#pragma once

#include "kerchunk/hdf5/chunk_geometry.h"
#include "kerchunk/hdf5/data_layout.h"
#include "kerchunk/hdf5/file.h"

namespace kerchunk::hdf5::internal {

/// Visits the entries below the header's "max index set" that have a defined address. Data
/// block sizes follow the specification's rule: super block u holds 2^floor(u/2) data blocks of
/// 2^ceil(u/2) * (min elements) entries. DataLoss (naming the structure and address) for wrong
/// signatures, versions, client IDs or back pointers, impossible creation
/// parameters, or blocks past the end of the file.
Status WalkExtensibleArray(const File& file, const DataLayout& layout,
                           const ChunkGeometry& geometry, const ChunkVisitor& visit);

}  // namespace kerchunk::hdf5::internal
