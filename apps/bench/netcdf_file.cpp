#include "bench/netcdf_file.h"

#include <utility>

#include "verify/netcdf_api.h"

namespace kerchunk::bench::internal {

Status NcCheck(int rc, std::string_view what) {
  if (rc == NC_NOERR) return OkStatus();
  return InternalError("netCDF-C: {}: {}", what, nc_strerror(rc));
}

Result<NcWriter> NcWriter::Create(const std::string& path) {
  KERCHUNK_RETURN_IF_ERROR(netcdf::LoadLibrary());
  int ncid = -1;
  KERCHUNK_RETURN_IF_ERROR(
      NcCheck(nc_create(path.c_str(), NC_CLOBBER | NC_NETCDF4, &ncid), "create " + path));
  NcWriter writer(ncid, path);
  // Chunks are written whole, once: pre-filling them with the fill value would only cost time.
  int old_mode = 0;
  KERCHUNK_RETURN_IF_ERROR(NcCheck(nc_set_fill(ncid, NC_NOFILL, &old_mode), "set_fill " + path));
  return writer;
}

NcWriter::NcWriter(NcWriter&& other) noexcept
    : ncid_(std::exchange(other.ncid_, -1)), path_(std::move(other.path_)) {}

NcWriter::~NcWriter() {
  if (ncid_ >= 0) nc_close(ncid_);
}

Status NcWriter::Close() {
  int ncid = std::exchange(ncid_, -1);
  return NcCheck(nc_close(ncid), "close " + path_);
}

Status NcWriter::PutText(int varid, const char* name, std::string_view text) {
  return NcCheck(nc_put_att_text(ncid_, varid, name, text.size(), text.data()),
                 std::string("attribute ") + name);
}

Status NcWriter::PutFloat(int varid, const char* name, float value) {
  return NcCheck(nc_put_att_float(ncid_, varid, name, NC_FLOAT, 1, &value),
                 std::string("attribute ") + name);
}

}  // namespace kerchunk::bench::internal
