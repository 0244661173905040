// Format detection and per-file dispatch to the format scanners (declared in scan/file_scan.h;
// the scanners live in src/hdf5/ and src/netcdf3/).
#include "kerchunk/scan/file_scan.h"

#include <algorithm>
#include <array>

#include "kerchunk/util/file_io.h"

namespace kerchunk {

std::span<const FormatScanner* const> FormatScanners() {
  static const std::array<const FormatScanner*, 2> scanners = {&Netcdf3FormatScanner(),
                                                               &Hdf5FormatScanner()};
  return scanners;
}

const FormatScanner* FindFormatScanner(std::span<const std::byte> file) {
  for (const FormatScanner* scanner : FormatScanners()) {
    if (scanner->Recognizes(file)) return scanner;
  }
  return nullptr;
}

Result<FileFormat> DetectFileFormat(const std::string& path) {
  // Nearly every file names its format in its first 8 bytes, and one positioned read of them
  // costs a fraction of mapping the file: listing a folder probes every file in it, one at a
  // time, before the scan's threads start. Only a file whose head names no format (an HDF5
  // user block, or not a data file) is mapped, which touches only the pages at the probed
  // offsets however large the file.
  KERCHUNK_ASSIGN_OR_RETURN(ReadOnlyFile head_file, ReadOnlyFile::Open(path));
  KERCHUNK_ASSIGN_OR_RETURN(std::string head,
                            head_file.Read(0, std::min<uint64_t>(head_file.size(), 8)));
  const FormatScanner* scanner = FindFormatScanner(std::as_bytes(std::span(head)));
  if (!scanner) {
    KERCHUNK_ASSIGN_OR_RETURN(MappedFile file, MappedFile::Open(path));
    scanner = FindFormatScanner(file.bytes());
  }
  if (scanner == &Netcdf3FormatScanner()) return FileFormat::kNetcdf3;
  if (scanner == &Hdf5FormatScanner()) return FileFormat::kHdf5;
  return FileFormat::kUnknown;
}

Result<FileScanResult> ScanFile(const std::string& path, const std::string& url,
                                const FileScanOptions& options) {
  KERCHUNK_ASSIGN_OR_RETURN(MappedFile file, MappedFile::Open(path));
  const FormatScanner* scanner = FindFormatScanner(file.bytes());
  if (!scanner) {
    return InvalidArgumentError(
        "{}: not an HDF5, NetCDF-4 or NetCDF-3 file (no HDF5 signature at 0, 512, 1024, ... and "
        "no \"CDF\" magic number)",
        path);
  }
  return scanner->Scan({file.bytes(), path, url, path}, options);
}

}  // namespace kerchunk
