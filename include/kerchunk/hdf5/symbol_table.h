// Old-style groups: the Symbol Table message (type 0x0011) points to a version 1 B-tree of type
// 0 (group nodes) whose leaves are symbol table nodes ("SNOD") of symbol table entries, and to
// the local heap that holds the link names.
// Format: HDF5 File Format Specification, "IV.A.2.s. The Symbol Table Message", "III.A.1.
// Version 1 B-trees", "III.B. Disk Format: Level 1B - Group Symbol Table Nodes" and "III.C.
// Disk Format: Level 1C - Symbol Table Entry",
// https://docs.hdfgroup.org/hdf5/develop/_f_m_t3.html#subsec_fmt3_infra_symboltable
#pragma once

#include <vector>

#include "kerchunk/hdf5/file.h"
#include "kerchunk/hdf5/link.h"
#include "kerchunk/util/status.h"

namespace kerchunk::hdf5 {

/// The links of the old-style group whose Symbol Table message data is `message`, in B-tree
/// (name) order; every entry is a hard link (soft links of the cache type 2 are reported as
/// kSoft). A node reached twice, a tree deeper than 64 levels, a wrong signature or a name
/// outside the heap is DataLoss naming the address.
Result<std::vector<Link>> ReadSymbolTableLinks(const File& file, ByteReader message);

}  // namespace kerchunk::hdf5
