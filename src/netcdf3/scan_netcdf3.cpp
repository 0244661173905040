// The per-file scan entry point for NetCDF-3 (declared in scan/file_scan.h).
#include "kerchunk/netcdf3/translator.h"
#include "kerchunk/scan/file_scan.h"
#include "kerchunk/util/file_io.h"

namespace kerchunk {

Result<FileScanResult> ScanNetcdf3File(const std::string& path, const std::string& url,
                                       const FileScanOptions& options) {
  // A memory map: parsing touches the header pages, and only inline chunks read data pages.
  KERCHUNK_ASSIGN_OR_RETURN(MappedFile file, MappedFile::Open(path));
  return netcdf3::TranslateNetcdf3(file.bytes(), path, url, options);
}

}  // namespace kerchunk
