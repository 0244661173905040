// libhdf5, loaded when first used (see util/shared_library.h for why): the table of the
// functions and type ids the project calls. hdf5/h5_api.h redirects their C names to it.
#pragma once

#include <hdf5.h>

#include "kerchunk/util/status.h"

#define KERCHUNK_H5_FUNCTIONS_COMMON(X) \
  X(H5Aclose)                           \
  X(H5Aexists)                          \
  X(H5Aget_space)                       \
  X(H5Aget_type)                        \
  X(H5Aiterate2)                        \
  X(H5Aopen)                            \
  X(H5Aread)                            \
  X(H5Dclose)                           \
  X(H5Dget_chunk_info)                  \
  X(H5Dget_chunk_info_by_coord)         \
  X(H5Dget_create_plist)                \
  X(H5Dget_num_chunks)                  \
  X(H5Dget_offset)                      \
  X(H5Dget_space)                       \
  X(H5Dget_storage_size)                \
  X(H5Dget_type)                        \
  X(H5Dopen2)                           \
  X(H5Dread)                            \
  X(H5Eclear2)                          \
  X(H5Eset_auto2)                       \
  X(H5Ewalk2)                           \
  X(H5Fclose)                           \
  X(H5Fopen)                            \
  X(H5Gclose)                           \
  X(H5Gopen2)                           \
  X(H5Iget_name)                        \
  X(H5Iget_type)                        \
  X(H5Lexists)                          \
  X(H5Oclose)                           \
  X(H5Pclose)                           \
  X(H5Pcreate)                          \
  X(H5Pfill_value_defined)              \
  X(H5Pget_chunk)                       \
  X(H5Pget_fill_value)                  \
  X(H5Pget_filter2)                     \
  X(H5Pget_layout)                      \
  X(H5Pget_nfilters)                    \
  X(H5Pset_fapl_core)                   \
  X(H5Pset_file_image)                  \
  X(H5Pset_file_image_callbacks)        \
  X(H5Rdereference2)                    \
  X(H5Sclose)                           \
  X(H5Screate_simple)                   \
  X(H5Sget_simple_extent_dims)          \
  X(H5Sget_simple_extent_ndims)         \
  X(H5Sget_simple_extent_npoints)       \
  X(H5Sget_simple_extent_type)          \
  X(H5Sselect_hyperslab)                \
  X(H5Tarray_create2)                   \
  X(H5Tclose)                           \
  X(H5Tcopy)                            \
  X(H5Tcreate)                          \
  X(H5Tequal)                           \
  X(H5Tget_array_dims2)                 \
  X(H5Tget_array_ndims)                 \
  X(H5Tget_class)                       \
  X(H5Tget_cset)                        \
  X(H5Tget_fields)                      \
  X(H5Tget_member_name)                 \
  X(H5Tget_member_offset)               \
  X(H5Tget_member_type)                 \
  X(H5Tget_member_value)                \
  X(H5Tget_nmembers)                    \
  X(H5Tget_offset)                      \
  X(H5Tget_order)                       \
  X(H5Tget_precision)                   \
  X(H5Tget_sign)                        \
  X(H5Tget_size)                        \
  X(H5Tget_super)                       \
  X(H5Tinsert)                          \
  X(H5Tis_variable_str)                 \
  X(H5Tset_cset)                        \
  X(H5Tset_order)                       \
  X(H5Tset_size)                        \
  X(H5Tset_strpad)                      \
  X(H5Tvlen_create)                     \
  X(H5Zfilter_avail)                    \
  X(H5check_version)                    \
  X(H5free_memory)                      \
  X(H5open)

// The calls whose name depends on the release (the code picks with H5_VERSION_GE).
#if H5_VERSION_GE(1, 12, 0)
#define KERCHUNK_H5_FUNCTIONS(X) \
  KERCHUNK_H5_FUNCTIONS_COMMON(X) X(H5Ovisit3) X(H5Treclaim) X(H5VLnative_token_to_addr)
#else
#define KERCHUNK_H5_FUNCTIONS(X) KERCHUNK_H5_FUNCTIONS_COMMON(X) X(H5Ovisit2) X(H5Dvlen_reclaim)
#endif

// The library's global ids behind H5T_NATIVE_DOUBLE, H5P_FILE_ACCESS, ... (set by H5open).
#define KERCHUNK_H5_VARIABLES(X) \
  X(H5P_CLS_FILE_ACCESS_ID_g)    \
  X(H5T_C_S1_g)                  \
  X(H5T_IEEE_F32BE_g)            \
  X(H5T_IEEE_F32LE_g)            \
  X(H5T_IEEE_F64BE_g)            \
  X(H5T_IEEE_F64LE_g)            \
  X(H5T_NATIVE_DOUBLE_g)         \
  X(H5T_NATIVE_LLONG_g)          \
  X(H5T_NATIVE_ULLONG_g)         \
  X(H5T_STD_I16BE_g)             \
  X(H5T_STD_I16LE_g)             \
  X(H5T_STD_I32BE_g)             \
  X(H5T_STD_I32LE_g)             \
  X(H5T_STD_I64BE_g)             \
  X(H5T_STD_I64LE_g)             \
  X(H5T_STD_I8LE_g)              \
  X(H5T_STD_REF_OBJ_g)           \
  X(H5T_STD_U16BE_g)             \
  X(H5T_STD_U16LE_g)             \
  X(H5T_STD_U32BE_g)             \
  X(H5T_STD_U32LE_g)             \
  X(H5T_STD_U64BE_g)             \
  X(H5T_STD_U64LE_g)             \
  X(H5T_STD_U8LE_g)

namespace kerchunk::hdf5 {

/// libhdf5's functions, and the addresses of its id variables.
struct H5Api {
#define KERCHUNK_H5_MEMBER(name) decltype(&::name) name = nullptr;
  KERCHUNK_H5_FUNCTIONS(KERCHUNK_H5_MEMBER)
  KERCHUNK_H5_VARIABLES(KERCHUNK_H5_MEMBER)
#undef KERCHUNK_H5_MEMBER
};

/// Loads libhdf5 once (later calls return the first outcome). NotFound naming the library when
/// it is not installed. Every entry point that opens a file with libhdf5 calls it first.
Status LoadLibrary();

/// The table; loads libhdf5 if no entry point has. Aborts when it cannot be loaded (code that
/// reaches a libhdf5 call has passed an entry point's LoadLibrary).
const H5Api& Api();

}  // namespace kerchunk::hdf5
