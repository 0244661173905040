// The HDF5 / NetCDF-4 format scanner (kerchunk/formats/format_scanner.h) and its file-level
// entry points.
#pragma once

#include <cstddef>
#include <span>
#include <string>

#include "kerchunk/formats/format_scanner.h"

namespace kerchunk {

/// The HDF5 scanner: recognizes the HDF5 signature at 0, 512, 1024, ... (after a user block)
/// and translates with the native reader, or libhdf5 as FileScanOptions::hdf5_reader says.
const FormatScanner& Hdf5FormatScanner();

/// Translates an HDF5 / NetCDF-4 file. `url` is what the references name (the path after
/// --url-prefix/--rewrite), `path` the local file to read.
Result<FileScanResult> ScanHdf5File(const std::string& path, const std::string& url,
                                    const FileScanOptions& options);

/// Translates an HDF5 file image in memory with the native reader only (no libhdf5, no file):
/// what ScanHdf5File does with Hdf5Reader::kNativeOnly, for fuzzing and tests. `name` prefixes
/// error messages.
Result<FileScanResult> ScanHdf5Image(std::span<const std::byte> image, const std::string& name,
                                     const std::string& url, const FileScanOptions& options);

}  // namespace kerchunk
