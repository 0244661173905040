// The NetCDF-3 format scanner (kerchunk/formats/format_scanner.h) and its file-level entry point.
#pragma once

#include <string>

#include "kerchunk/formats/format_scanner.h"

namespace kerchunk {

/// The NetCDF-3 scanner: classic ("CDF\x01"), 64-bit offset ("CDF\x02") and CDF-5 ("CDF\x05").
const FormatScanner& Netcdf3FormatScanner();

/// Translates a NetCDF-3 file (classic, 64-bit offset or CDF-5).
Result<FileScanResult> ScanNetcdf3File(const std::string& path, const std::string& url,
                                       const FileScanOptions& options);

}  // namespace kerchunk
