// NetCDF-3 header -> Kerchunk references, laid out as Python kerchunk's NetCDF3ToZarr lays them
// out (kerchunk/netCDF3.py): one zarr array per variable, uncompressed, with the big-endian
// dtype of the file; a fixed-size variable is one chunk holding all its values; a record
// variable has chunks (1, rest of the shape...), one per record, at begin + i * record_size.
//
// Metadata values follow attributes.h (typed attributes, _FillValue as fill_value), which is
// where this deviates from NetCDF3ToZarr on purpose. Other differences: each variable's own
// "begin" from the header locates its records (as netCDF-C reads them; NetCDF3ToZarr adds up
// sizes from the first record variable, the same in a well-formed file); CDF-5 files and their
// unsigned and 64-bit types are supported (scipy's reader, under NetCDF3ToZarr, rejects them);
// inline chunks are always written as base64.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "kerchunk/formats/format_scanner.h"
#include "kerchunk/netcdf3/header.h"
#include "kerchunk/refs/reference_set.h"
#include "kerchunk/util/status.h"

namespace kerchunk::netcdf3 {

struct TranslateOptions {
  /// Chunks of fewer bytes than this are stored inline (base64) instead of as a byte range.
  uint64_t inline_threshold = 0;
};

/// Builds the references of a parsed file: ".zgroup", the root ".zattrs" (global attributes),
/// then per variable in header order "<name>/.zarray", "<name>/.zattrs" and its chunks. URL id 0
/// is `url`. Metadata documents are compact JSON in ASCII, non-ASCII text \u-escaped as zarr
/// writes it (zarr 2.x decodes .zarray and .zattrs as ASCII and rejects raw UTF-8). `file` must
/// be the bytes ParseHeader read (inline chunks are copied from it). Variables with no values
/// (record variables with 0 records) get metadata and no chunks.
///
/// Does not re-check what ParseHeader checked; a Header built by hand must satisfy the same
/// invariants (values inside `file`).
Result<ReferenceSet> Translate(const Header& header, std::span<const std::byte> file,
                               std::string_view url, const TranslateOptions& options);

/// ParseHeader + Translate for a whole NetCDF-3 file in memory; every error message starts with
/// `file_name`. Adds a warning when numrecs was STREAMING (the record count came from the file
/// size). FileScanOptions::on_unsupported does not apply: every NetCDF-3 variable translates.
Result<FileScanResult> TranslateNetcdf3(std::span<const std::byte> file, std::string_view file_name,
                                        std::string_view url, const FileScanOptions& options);

}  // namespace kerchunk::netcdf3
