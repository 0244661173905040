// Attributes of an HDF5 group or dataset as Python kerchunk's _transfer_attrs turns them into a
// zarr .zattrs object: strings decoded, numeric arrays as (nested) lists, one-element arrays as
// scalars, netCDF/HDF5 bookkeeping attributes left out. Internal to the HDF5 translator.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "hdf5/attribute_set.h"
#include "hdf5/h5_api.h"
#include "kerchunk/json/json_value.h"
#include "kerchunk/util/status.h"

namespace kerchunk::hdf5::internal {

/// Reads every attribute of `object`. Unreadable or unrepresentable attributes are listed in
/// `skipped` rather than failing; only a failure to list the attributes at all is an error.
Result<AttributeSet> ReadAttributes(hid_t object);

}  // namespace kerchunk::hdf5::internal
