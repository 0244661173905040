// Reading string values (fixed-length and variable-length) of HDF5 attributes and datasets into
// std::string, as h5py presents them. Internal to the HDF5 translator.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "hdf5/h5_api.h"
#include "kerchunk/json/json_value.h"
#include "kerchunk/util/status.h"

namespace kerchunk::hdf5::internal {

/// Reads all `count` string elements of an attribute (`is_attribute`) or dataset `object` whose
/// file type is the string type `type`. Fixed-length values lose trailing NUL bytes (numpy's
/// "S" semantics); a null variable-length string becomes "". Bytes are returned as stored (the
/// caller validates UTF-8).
Result<std::vector<std::string>> ReadStrings(hid_t object, hid_t type, size_t count,
                                             bool is_attribute);

/// Lower-case name of a datatype class for messages ("compound type", "reference type").
std::string TypeClassName(H5T_class_t cls);

/// Frees the memory libhdf5 allocated for variable-length elements read into `buffer`.
void ReclaimVlen(hid_t mem_type, hid_t space, void* buffer);

}  // namespace kerchunk::hdf5::internal

namespace kerchunk::hdf5::internal {}  // namespace kerchunk::hdf5::internal
