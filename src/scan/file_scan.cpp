// Format detection and per-file dispatch (declared in scan/file_scan.h; the translators live in
// src/hdf5/ and src/netcdf3/).
#include "kerchunk/scan/file_scan.h"

#include <array>
#include <cstring>
#include <span>

#include "kerchunk/util/file_io.h"

namespace kerchunk {
namespace {

constexpr std::array<unsigned char, 8> kHdf5Signature = {0x89, 'H',  'D',  'F',
                                                         '\r', '\n', 0x1a, '\n'};

bool HasBytesAt(std::span<const std::byte> bytes, uint64_t offset,
                std::span<const unsigned char> expected) {
  if (offset > bytes.size() || bytes.size() - offset < expected.size()) return false;
  return std::memcmp(bytes.data() + offset, expected.data(), expected.size()) == 0;
}

// HDF5 section II.A: the superblock is at 0 or, after a user block, at 512, 1024, 2048, ...
bool IsHdf5(std::span<const std::byte> bytes) {
  for (uint64_t offset = 0; offset < bytes.size(); offset = offset == 0 ? 512 : offset * 2) {
    if (HasBytesAt(bytes, offset, kHdf5Signature)) return true;
  }
  return false;
}

// NetCDF classic ("CDF\x01"), 64-bit offset ("CDF\x02") and CDF-5 ("CDF\x05").
bool IsNetcdf3(std::span<const std::byte> bytes) {
  for (unsigned char version : {1, 2, 5}) {
    const std::array<unsigned char, 4> magic = {'C', 'D', 'F', version};
    if (HasBytesAt(bytes, 0, magic)) return true;
  }
  return false;
}

}  // namespace

Result<FileFormat> DetectFileFormat(const std::string& path) {
  // A memory map touches only the pages at the probed offsets, however large the file.
  KERCHUNK_ASSIGN_OR_RETURN(MappedFile file, MappedFile::Open(path));
  if (IsNetcdf3(file.bytes())) return FileFormat::kNetcdf3;
  if (IsHdf5(file.bytes())) return FileFormat::kHdf5;
  return FileFormat::kUnknown;
}

Result<FileScanResult> ScanFile(const std::string& path, const std::string& url,
                                const FileScanOptions& options) {
  KERCHUNK_ASSIGN_OR_RETURN(FileFormat format, DetectFileFormat(path));
  switch (format) {
    case FileFormat::kHdf5:
      return ScanHdf5File(path, url, options);
    case FileFormat::kNetcdf3:
      return ScanNetcdf3File(path, url, options);
    case FileFormat::kUnknown:
      break;
  }
  return InvalidArgumentError(
      "{}: not an HDF5, NetCDF-4 or NetCDF-3 file (no HDF5 signature at 0, 512, 1024, ... and "
      "no \"CDF\" magic number)",
      path);
}

}  // namespace kerchunk
