#include "util/shared_library.h"
#include "verify/netcdf_api_table.h"

namespace kerchunk::netcdf {
namespace {

Status Bind(const kerchunk::internal::SharedLibrary& library, NetcdfApi& table) {
  KERCHUNK_NETCDF_FUNCTIONS(KERCHUNK_BIND_FUNCTION)
  return OkStatus();
}

const kerchunk::internal::LoadedTable<NetcdfApi>& Loaded() {
  return kerchunk::internal::LoadOnce<NetcdfApi, &Bind>("netCDF-C", KERCHUNK_NETCDF_LIBRARY_FILE);
}

}  // namespace

Status LoadLibrary() { return Loaded().status; }

const NetcdfApi& Api() { return kerchunk::internal::TableOrAbort(Loaded()); }

}  // namespace kerchunk::netcdf
