// Version 2 B-trees of record type 10 (unfiltered chunks) and 11 (filtered chunks): the chunk
// index of datasets with more than one unlimited dimension. A header ("BTHD") points to the root;
// internal nodes ("BTIN") hold records and child pointers, leaves ("BTLF") hold records. Every
// record, in internal nodes too, is one chunk: its address, (type 11) stored size and filter
// mask, and its coordinates already scaled to chunk units.
// Format: HDF5 File Format Specification, "III.A.2. Disk Format: Level 1A2 - Version 2 B-trees",
// https://docs.hdfgroup.org/hdf5/develop/_f_m_t3.html#subsubsec_fmt3_infra_btrees_v2
#pragma once

#include <cstddef>
#include <functional>
#include <span>

#include "kerchunk/hdf5/chunk_geometry.h"
#include "kerchunk/hdf5/data_layout.h"
#include "kerchunk/hdf5/file.h"

namespace kerchunk::hdf5::internal {

/// Visits every record of the tree whose header is at layout.index_address. The widths of the
/// per-child record counts follow the specification: the count of records in a child takes as
/// many bytes as the maximum count of a leaf needs, the total count below a child as many as
/// the maximum total below a node of the child's depth. DataLoss (naming the node and address)
/// for a wrong signature, version or record type, a record count above a node's capacity, a node
/// reached twice, a depth whose capacity overflows 64 bits, or a node past the end of the file.
Status WalkBTreeV2(const File& file, const DataLayout& layout, const ChunkGeometry& geometry,
                   const ChunkVisitor& visit);

/// Visits, in key order, every record of the v2 B-tree whose header ("BTHD") is at `address`,
/// whatever its record type, as the record's bytes and their file offset. Used for the name
/// indexes of dense links (type 5) and dense attributes (type 8). `expected_type` is checked
/// against the header and every node; the node checks are those of WalkBTreeV2.
using BTreeV2RecordVisitor =
    std::function<Status(std::span<const std::byte> record, uint64_t record_offset)>;
Status ForEachBTreeV2Record(const File& file, uint64_t address, uint8_t expected_type,
                            const BTreeV2RecordVisitor& visit);

}  // namespace kerchunk::hdf5::internal
