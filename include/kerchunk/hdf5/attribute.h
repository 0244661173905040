// The Attribute message (type 0x000C, versions 1..3) and the Attribute Info message (type
// 0x0015) that points to dense attribute storage: a fractal heap of attribute messages indexed
// by a v2 B-tree of type 8 (name hashes).
// Format: HDF5 File Format Specification, "IV.A.2.m. The Attribute Message" and "IV.A.2.v. The
// Attribute Info Message",
// https://docs.hdfgroup.org/hdf5/develop/_f_m_t3.html#subsubsec_fmt3_dataobject_hdr_msg_attribute
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

#include "kerchunk/hdf5/dataspace.h"
#include "kerchunk/hdf5/datatype.h"
#include "kerchunk/hdf5/file.h"
#include "kerchunk/hdf5/object_header.h"
#include "kerchunk/util/status.h"

namespace kerchunk::hdf5 {

/// A decoded attribute. `data` views the stored elements in the file image (element count
/// times type size bytes; empty for a null dataspace).
struct Attribute {
  std::string name;
  Datatype type;
  Dataspace space;
  std::span<const std::byte> data;
  uint64_t data_offset = 0;  ///< file offset of data[0], for messages
};

/// Decodes an Attribute message (its datatype or dataspace may be shared, and are then
/// resolved). DataLoss when the data is shorter than its elements need.
Result<Attribute> DecodeAttribute(const File& file, const HeaderMessage& message);

/// The attribute messages of dense storage (Attribute Info message data `message`), in the
/// name index's (hash) order, as header messages whose data lies in the fractal heap.
Result<std::vector<HeaderMessage>> ReadDenseAttributeMessages(const File& file, ByteReader message);

}  // namespace kerchunk::hdf5
