// The external data types and format variants of NetCDF-3 files (classic, 64-bit offset, CDF-5).
// https://docs.unidata.ucar.edu/netcdf-c/current/file_format_specifications.html
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace kerchunk::netcdf3 {

/// The format variant, named by the version byte of the magic number "CDF\x01/\x02/\x05".
enum class Format : uint8_t {
  kClassic = 1,      ///< CDF-1: 32-bit counts and offsets
  k64BitOffset = 2,  ///< CDF-2: 64-bit variable offsets ("begin"), 32-bit counts
  k64BitData = 5,    ///< CDF-5: 64-bit counts, sizes and offsets, unsigned and 64-bit types
};

/// The nc_type codes of the file format. CDF-5 adds kUbyte..kUint64; like netCDF-C, the parser
/// accepts them in every variant. NC_STRING (12) exists only in NetCDF-4 and is rejected.
enum class NcType : uint32_t {
  kByte = 1,
  kChar = 2,
  kShort = 3,
  kInt = 4,
  kFloat = 5,
  kDouble = 6,
  kUbyte = 7,
  kUshort = 8,
  kUint = 9,
  kInt64 = 10,
  kUint64 = 11,
};

/// The type of a code read from a file, or nullopt for codes outside 1..11.
std::optional<NcType> NcTypeFromCode(uint32_t code);

/// Size in bytes of one element (1, 2, 4 or 8).
uint32_t TypeSize(NcType type);

/// The netCDF-C name of a type ("short", "uint64"), for messages.
std::string_view TypeName(NcType type);

/// The numpy dtype string of the big-endian on-disk values, as zarr and Python kerchunk write it
/// (">i2", ">f8", "|i1" for byte, "|u1" for ubyte, "|S1" for char).
std::string_view NumpyDtype(NcType type);

/// Whether values of the type are integers (every type but char, float and double).
bool IsInteger(NcType type);
/// Whether values of the type are float or double.
bool IsFloat(NcType type);

/// Name of a format variant for messages ("classic", "64-bit offset", "CDF-5").
std::string_view FormatName(Format format);

}  // namespace kerchunk::netcdf3
