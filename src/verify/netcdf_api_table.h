// netCDF-C (verify's oracle for NetCDF-3 files; bench writes its generated series with it), loaded
// when first used (see util/shared_library.h for why): the table of the functions the project
// calls. verify/netcdf_api.h redirects their C names to it.
#pragma once

#include <netcdf.h>
#include <netcdf_mem.h>

#include "kerchunk/util/status.h"

#define KERCHUNK_NETCDF_FUNCTIONS(X) \
  X(nc_close)                        \
  X(nc_create)                       \
  X(nc_def_dim)                      \
  X(nc_def_var)                      \
  X(nc_def_var_chunking)             \
  X(nc_def_var_deflate)              \
  X(nc_enddef)                       \
  X(nc_get_att_double)               \
  X(nc_get_att_text)                 \
  X(nc_get_vara)                     \
  X(nc_inq_att)                      \
  X(nc_inq_dimlen)                   \
  X(nc_inq_var)                      \
  X(nc_inq_varid)                    \
  X(nc_open)                         \
  X(nc_open_mem)                     \
  X(nc_put_att_float)                \
  X(nc_put_att_text)                 \
  X(nc_put_var_float)                \
  X(nc_put_vara_double)              \
  X(nc_put_vara_float)               \
  X(nc_set_fill)                     \
  X(nc_strerror)

namespace kerchunk::netcdf {

struct NetcdfApi {
#define KERCHUNK_NETCDF_MEMBER(name) decltype(&::name) name = nullptr;
  KERCHUNK_NETCDF_FUNCTIONS(KERCHUNK_NETCDF_MEMBER)
#undef KERCHUNK_NETCDF_MEMBER
};

/// Loads netCDF-C once (later calls return the first outcome). NotFound naming the library
/// when it is not installed. Every entry point that calls netCDF-C calls it first.
Status LoadLibrary();

/// The table; loads netCDF-C if no entry point has. Aborts when it cannot be loaded.
const NetcdfApi& Api();

}  // namespace kerchunk::netcdf
