// Translating one local NetCDF/HDF5 file into references: the per-file step of `kerchunk scan`,
// dispatching to the format scanners (kerchunk/formats/format_scanner.h). The driver (scan.h)
// lists files, runs these in parallel, combines and writes the result; remote files go through
// source_scan.h.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "kerchunk/formats/format_scanner.h"
#include "kerchunk/hdf5/scan_hdf5.h"
#include "kerchunk/netcdf3/scan_netcdf3.h"
#include "kerchunk/util/status.h"

namespace kerchunk {

/// The scanners of every format, in the order their signatures are tried (NetCDF-3 first: its
/// magic number is at 0 only, where an HDF5 file never starts with "CDF").
std::span<const FormatScanner* const> FormatScanners();

/// The scanner whose signature `file` carries, or nullptr.
const FormatScanner* FindFormatScanner(std::span<const std::byte> file);

/// The format of a file judged by its first bytes.
enum class FileFormat { kHdf5, kNetcdf3, kUnknown };
/// Detects the format (HDF5 signature at 0, 512, 1024, ...; "CDF\x01/\x02/\x05").
Result<FileFormat> DetectFileFormat(const std::string& path);

/// Maps the file and hands it to the scanner of its format (FindFormatScanner); an unknown
/// format is an InvalidArgument error naming the file.
Result<FileScanResult> ScanFile(const std::string& path, const std::string& url,
                                const FileScanOptions& options);

}  // namespace kerchunk
