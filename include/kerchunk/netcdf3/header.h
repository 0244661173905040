// The header of a NetCDF-3 file (classic, 64-bit offset and CDF-5), parsed natively from the
// big-endian bytes: numrecs, dimensions, global attributes and variables with their attributes,
// types, sizes and data offsets, plus the record layout derived from them as netCDF-C does.
// https://docs.unidata.ucar.edu/netcdf-c/current/file_format_specifications.html
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "kerchunk/netcdf3/types.h"
#include "kerchunk/util/status.h"

namespace kerchunk::netcdf3 {

struct Dimension {
  std::string name;
  uint64_t length = 0;  ///< as stored; 0 marks the record (unlimited) dimension
  bool is_record() const { return length == 0; }
};

/// One attribute: its values exactly as stored (big-endian), without the header padding.
struct Attribute {
  std::string name;
  NcType type = NcType::kChar;
  uint64_t count = 0;  ///< number of values (characters for kChar)
  std::string values;  ///< count * TypeSize(type) bytes, big-endian
};

struct Variable {
  std::string name;
  std::vector<uint64_t> dim_ids;  ///< indexes into Header::dimensions, outermost first
  std::vector<Attribute> attributes;
  NcType type = NcType::kByte;
  uint64_t vsize = 0;  ///< as stored; redundant (2^32-1 for huge CDF-1/2 variables) and unused
  uint64_t begin = 0;  ///< file offset of the values (of record 0 for a record variable)

  // Derived from the dimensions by ParseHeader.
  bool is_record = false;       ///< the first dimension is the record dimension
  std::vector<uint64_t> shape;  ///< dimension lengths; the record dimension has num_records
  /// Bytes of the values of one record (record variable) or of the whole variable (fixed),
  /// without padding: the product of the non-record dimensions times the type size.
  uint64_t slab_bytes = 0;
};

struct Header {
  Format format = Format::kClassic;
  /// Number of records: numrecs as stored, or derived from the file size when streaming.
  uint64_t num_records = 0;
  /// numrecs held the STREAMING marker (all bits set): num_records counts the complete records
  /// the file holds.
  bool streaming = false;
  std::vector<Dimension> dimensions;
  std::vector<Attribute> attributes;  ///< global attributes
  std::vector<Variable> variables;    ///< in header order
  uint64_t header_size = 0;           ///< bytes from the magic number to the end of the var list
  /// Bytes from one record to the next: the sum of the padded record slabs, or, when there is
  /// exactly one record variable, its unpadded slab (the spec's "Note on padding").
  uint64_t record_size = 0;
  uint64_t file_size = 0;

  /// Length of a dimension, with num_records for the record dimension.
  uint64_t DimensionLength(uint64_t dim_id) const;
};

/// Parses and validates the header of a NetCDF-3 file held in `file` (the whole file: it may be
/// a memory map, of which only the header pages are read).
///
/// Checks: the magic number (InvalidArgument when the file is not "CDF", Unsupported for an
/// unknown version byte); every count against the bytes that remain (a claimed 2^31 attributes
/// in a 200-byte file is DataLoss, not an allocation); list tags; nc_type codes; names (valid
/// UTF-8; like netCDF-C, a name ends at its first NUL byte; variable names that cannot be zarr
/// keys — empty, with '/', or starting with '.' — are Unsupported; duplicate variable names are
/// DataLoss); dimension ids; the record
/// dimension only as a variable's first dimension; the data offsets as netCDF-C checks them
/// (after the header, fixed-size variables in order without overlap, record variables after
/// them); and that the values of every variable lie inside the file (DataLoss naming the
/// variable and the offsets). Errors are DataLoss unless said otherwise and name the byte
/// address or the variable, not the file: callers add it with Annotate().
///
/// Does not check: that header padding bytes are zero (netCDF-C does not by default, and real
/// files pad names with other bytes), that names are NFC-normalised or follow the NetCDF name
/// grammar beyond the above, that the stored vsize matches (it is recomputed, as netCDF-C does),
/// or netCDF-C's per-format limits on variable sizes.
Result<Header> ParseHeader(std::span<const std::byte> file);

}  // namespace kerchunk::netcdf3
