// Version 1 B-trees of type 1 (raw data chunks): the chunk index of every chunked dataset whose
// layout message is version 1..3.
// Format: HDF5 File Format Specification, "III.A.1. Disk Format: Level 1A1 - Version 1
// B-trees", https://docs.hdfgroup.org/hdf5/develop/_f_m_t3.html#subsubsec_fmt3_infra_btrees_v1
#pragma once

#include "kerchunk/hdf5/chunk_geometry.h"
#include "kerchunk/hdf5/data_layout.h"
#include "kerchunk/hdf5/file.h"

namespace kerchunk::hdf5::internal {

/// Visits the chunks of the v1 B-tree rooted at layout.index_address (none when undefined).
/// Each node is read once: a node reached twice (cycle or shared subtree), a child whose level
/// is not its parent's minus one, a wrong signature or node type, or a key offset that is not a
/// multiple of the chunk extent is DataLoss naming the node's address.
Status WalkBTreeV1(const File& file, const DataLayout& layout, const ChunkGeometry& geometry,
                   const ChunkVisitor& visit);

}  // namespace kerchunk::hdf5::internal
