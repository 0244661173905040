// One data object (group, dataset or committed datatype) as the metadata translation sees it:
// the header messages it needs, read in one pass over the object header (continuation blocks
// included) with shared messages resolved, and the listing of a group's links in any of the
// three storages (symbol table, compact link messages, dense links in a fractal heap).
// Format: HDF5 File Format Specification, "IV.A. Disk Format: Level 2A - Data Object Headers"
// and "IV.B. Disk Format: Level 2B - Data Object Data Storage",
// https://docs.hdfgroup.org/hdf5/develop/_f_m_t3.html#sec_fmt3_dataobject
#pragma once

#include <cstdint>
#include <optional>
#include <vector>

#include "kerchunk/hdf5/attribute.h"
#include "kerchunk/hdf5/file.h"
#include "kerchunk/hdf5/link.h"
#include "kerchunk/hdf5/object_header.h"
#include "kerchunk/util/status.h"

namespace kerchunk::hdf5 {

/// What libhdf5's H5Oget_info reports as the object type.
enum class ObjectKind { kGroup, kDataset, kNamedDatatype, kUnknown };

/// The messages of one object header that the translation uses (views into the file image).
struct DataObject {
  uint64_t address = kUndefinedAddress;
  std::optional<HeaderMessage> dataspace, datatype, fill_value_old, fill_value, layout,
      filter_pipeline, symbol_table, link_info, attribute_info;
  std::vector<HeaderMessage> links;       ///< compact storage
  std::vector<HeaderMessage> attributes;  ///< compact storage

  /// libhdf5's classification: a group has a symbol table or link info message, a dataset a
  /// datatype and a dataspace, a committed datatype only a datatype.
  ObjectKind kind() const;
};

/// Reads the object header at HDF5 address `address`. A shared datatype, dataspace, fill value,
/// filter pipeline or attribute message is replaced by the message it points to. Errors are
/// those of ForEachHeaderMessage and ResolveSharedMessage.
Result<DataObject> ReadDataObject(const File& file, uint64_t address);

/// The links of a group object, sorted by name (byte order, as libhdf5's name index iterates).
Result<std::vector<Link>> ListGroupLinks(const File& file, const DataObject& group);

/// The attributes of an object (compact and dense), sorted by name.
Result<std::vector<Attribute>> ListAttributes(const File& file, const DataObject& object);

}  // namespace kerchunk::hdf5
