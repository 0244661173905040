// netCDF-C's C names, redirected to the table loaded when it is first used (see
// util/shared_library.h for why): calls read as ordinary C calls. A name missing here or from the
// table's list is caught by the build: the program is not linked with netCDF-C.
#pragma once

#include "verify/netcdf_api_table.h"

#define nc_close (::kerchunk::netcdf::Api().nc_close)
#define nc_create (::kerchunk::netcdf::Api().nc_create)
#define nc_def_dim (::kerchunk::netcdf::Api().nc_def_dim)
#define nc_def_var (::kerchunk::netcdf::Api().nc_def_var)
#define nc_def_var_chunking (::kerchunk::netcdf::Api().nc_def_var_chunking)
#define nc_def_var_deflate (::kerchunk::netcdf::Api().nc_def_var_deflate)
#define nc_enddef (::kerchunk::netcdf::Api().nc_enddef)
#define nc_get_att_double (::kerchunk::netcdf::Api().nc_get_att_double)
#define nc_get_att_text (::kerchunk::netcdf::Api().nc_get_att_text)
#define nc_get_vara (::kerchunk::netcdf::Api().nc_get_vara)
#define nc_inq_att (::kerchunk::netcdf::Api().nc_inq_att)
#define nc_inq_dimlen (::kerchunk::netcdf::Api().nc_inq_dimlen)
#define nc_inq_var (::kerchunk::netcdf::Api().nc_inq_var)
#define nc_inq_varid (::kerchunk::netcdf::Api().nc_inq_varid)
#define nc_open (::kerchunk::netcdf::Api().nc_open)
#define nc_open_mem (::kerchunk::netcdf::Api().nc_open_mem)
#define nc_put_att_float (::kerchunk::netcdf::Api().nc_put_att_float)
#define nc_put_att_text (::kerchunk::netcdf::Api().nc_put_att_text)
#define nc_put_var_float (::kerchunk::netcdf::Api().nc_put_var_float)
#define nc_put_vara_double (::kerchunk::netcdf::Api().nc_put_vara_double)
#define nc_put_vara_float (::kerchunk::netcdf::Api().nc_put_vara_float)
#define nc_set_fill (::kerchunk::netcdf::Api().nc_set_fill)
#define nc_strerror (::kerchunk::netcdf::Api().nc_strerror)
