// The Link message (type 0x0006) and the Link Info message (type 0x0002) of new-style groups.
// Format: HDF5 File Format Specification, "IV.A.2.g. The Link Info Message" and
// "IV.A.2.r. The Link Message",
// https://docs.hdfgroup.org/hdf5/develop/_f_m_t3.html#subsubsec_fmt3_dataobject_hdr_msg_link
#pragma once

#include <cstdint>
#include <string>

#include "kerchunk/hdf5/file.h"
#include "kerchunk/util/byte_reader.h"
#include "kerchunk/util/status.h"

namespace kerchunk::hdf5 {

enum class LinkType : uint8_t { kHard = 0, kSoft = 1, kExternal = 64 };

/// One link of a group: its name and, for a hard link, the object header address.
struct Link {
  std::string name;
  LinkType type = LinkType::kHard;
  uint64_t address = kUndefinedAddress;  ///< hard links only
};

/// Decodes a Link message (version 1). Other link types than hard keep no target here.
Result<Link> DecodeLink(const File& file, ByteReader r);

/// Where a new-style group keeps its links when they are dense.
struct LinkInfo {
  uint64_t heap_address = kUndefinedAddress;        ///< fractal heap of link messages
  uint64_t name_index_address = kUndefinedAddress;  ///< v2 B-tree of type 5
};

/// Decodes a Link Info message (version 0).
Result<LinkInfo> DecodeLinkInfo(const File& file, ByteReader r);

}  // namespace kerchunk::hdf5
