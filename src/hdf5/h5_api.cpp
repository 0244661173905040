#include "hdf5/h5_api_table.h"
#include "util/shared_library.h"

namespace kerchunk::hdf5 {
namespace {

Status Bind(const kerchunk::internal::SharedLibrary& library, H5Api& table) {
  KERCHUNK_H5_FUNCTIONS(KERCHUNK_BIND_FUNCTION)
  KERCHUNK_H5_VARIABLES(KERCHUNK_BIND_VARIABLE)
  return OkStatus();
}

const kerchunk::internal::LoadedTable<H5Api>& Loaded() {
  return kerchunk::internal::LoadOnce<H5Api, &Bind>("libhdf5", KERCHUNK_HDF5_LIBRARY_FILE);
}

}  // namespace

Status LoadLibrary() { return Loaded().status; }

const H5Api& Api() { return kerchunk::internal::TableOrAbort(Loaded()); }

}  // namespace kerchunk::hdf5
