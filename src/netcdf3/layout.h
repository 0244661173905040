// Internal steps of ParseHeader that come after the bytes are read: names, shapes, the record
// layout and the placement of every variable's values, checked as netCDF-C checks them on open
// (libsrc/v1hpg.c NC_computeshapes, libsrc/nc3internal.c NC_check_voffs).
#pragma once

#include <string_view>

#include "kerchunk/netcdf3/header.h"
#include "kerchunk/util/status.h"

namespace kerchunk::netcdf3::internal {

/// Checks the names of dimensions, attributes and variables (see ParseHeader).
Status CheckNames(const Header& header);

/// Fills Variable::is_record, shape and slab_bytes, Header::record_size and, when streaming,
/// num_records; then checks the data offsets and that all values lie inside the file.
Status ComputeLayout(Header& header);

}  // namespace kerchunk::netcdf3::internal
