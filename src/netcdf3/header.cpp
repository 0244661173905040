// Reading the bytes of a NetCDF-3 header (the grammar of the file format specification):
//   header    = magic numrecs dim_list gatt_list var_list
//   dim_list  = ABSENT | NC_DIMENSION nelems [dim ...]        dim  = name dim_length
//   gatt_list = ABSENT | NC_ATTRIBUTE nelems [attr ...]       attr = name nc_type nelems values
//   var_list  = ABSENT | NC_VARIABLE nelems [var ...]
//   var       = name nelems [dimid ...] vatt_list nc_type vsize begin
// Integers are big-endian. NON_NEG counts and sizes are 32-bit, except in CDF-5 where they are
// 64-bit; "begin" is 32-bit in the classic format and 64-bit otherwise. Names and values are
// padded to 4 bytes.
#include "kerchunk/netcdf3/header.h"

#include <algorithm>

#include "kerchunk/util/byte_reader.h"
#include "kerchunk/util/checked_math.h"
#include "netcdf3/layout.h"

namespace kerchunk::netcdf3 {
namespace {

constexpr uint32_t kTagDimension = 0x0A;
constexpr uint32_t kTagVariable = 0x0B;
constexpr uint32_t kTagAttribute = 0x0C;
// netCDF-C's NC_MAX_VAR_DIMS: it rejects variables of higher rank.
constexpr uint64_t kMaxVariableRank = 1024;

Result<uint64_t> Widen(Result<uint32_t> r) {
  if (!r.ok()) return r.status();
  return uint64_t{*r};
}

// The format-dependent integer widths on top of the bounds-checked reader.
class HeaderReader {
 public:
  HeaderReader(std::span<const std::byte> bytes, Format format)
      : reader_(bytes, 0, "NetCDF-3 header"), format_(format) {}

  ByteReader& bytes() { return reader_; }
  uint64_t position() const { return reader_.position(); }
  uint64_t remaining() const { return reader_.remaining(); }
  /// Width of a NON_NEG count or size.
  uint64_t count_width() const { return format_ == Format::k64BitData ? 8 : 4; }
  uint64_t offset_width() const { return format_ == Format::kClassic ? 4 : 8; }

  Result<uint64_t> Count(std::string_view field) {
    return format_ == Format::k64BitData ? reader_.U64BE(field) : Widen(reader_.U32BE(field));
  }
  Result<uint64_t> Offset(std::string_view field) {
    return format_ == Format::kClassic ? Widen(reader_.U32BE(field)) : reader_.U64BE(field);
  }

  /// `n` bytes followed by padding to a multiple of 4.
  Result<std::string_view> Padded(uint64_t n, std::string_view field) {
    KERCHUNK_ASSIGN_OR_RETURN(std::string_view data, reader_.Chars(n, field));
    KERCHUNK_RETURN_IF_ERROR(reader_.Skip((4 - n % 4) % 4));
    return data;
  }

  /// name = nelems namestring padding. The name ends at its first NUL byte: netCDF-C reads
  /// names as C strings, and real files (netcdf-c's own nctest output) store "pp" as 8 bytes
  /// "pp\0\0\0\0\0\0".
  Result<std::string> Name(std::string_view field) {
    KERCHUNK_ASSIGN_OR_RETURN(uint64_t length, Count(field));
    KERCHUNK_ASSIGN_OR_RETURN(std::string_view name, Padded(length, field));
    return std::string(name.substr(0, name.find('\0')));
  }

  Result<NcType> Type(std::string_view field) {
    uint64_t at = reader_.address();
    KERCHUNK_ASSIGN_OR_RETURN(uint32_t code, reader_.U32BE(field));
    auto type = NcTypeFromCode(code);
    if (!type) {
      return DataLossError(
          "NetCDF-3 header at address {}: {}: expected an nc_type in 1..11, got {}", at, field,
          code);
    }
    return *type;
  }

  /// The tag and element count of a list. An empty list may carry any tag (netCDF-C accepts
  /// ABSENT and a proper tag with count 0 alike); a non-empty one must carry `tag`, and its count
  /// must fit in the remaining bytes at `min_entry_bytes` per entry, so a corrupt count fails
  /// here instead of driving a huge loop or allocation.
  Result<uint64_t> ListHeader(uint32_t tag, std::string_view list, uint64_t min_entry_bytes) {
    uint64_t at = reader_.address();
    KERCHUNK_ASSIGN_OR_RETURN(uint32_t got_tag, reader_.U32BE(list));
    KERCHUNK_ASSIGN_OR_RETURN(uint64_t count, Count(list));
    if (count == 0) return count;
    if (got_tag != tag) {
      return DataLossError("NetCDF-3 header at address {}: {}: expected tag {:#04x}, got {:#x}", at,
                           list, tag, got_tag);
    }
    if (count > remaining() / min_entry_bytes) {
      return DataLossError(
          "NetCDF-3 header at address {}: {} claims {} entries, but only {} bytes remain (at "
          "least {} bytes an entry)",
          at, list, count, remaining(), min_entry_bytes);
    }
    return count;
  }

 private:
  ByteReader reader_;
  Format format_;
};

Result<Format> ReadMagic(ByteReader& r) {
  if (r.remaining() < 4) {
    return InvalidArgumentError("not a NetCDF-3 file: expected at least 4 bytes, got {}",
                                r.remaining());
  }
  KERCHUNK_ASSIGN_OR_RETURN(std::string_view magic, r.Chars(4, "magic number"));
  if (magic.substr(0, 3) != "CDF") {
    std::string shown;
    for (char c : magic.substr(0, 3)) shown += (c >= 32 && c < 127) ? c : '?';
    return InvalidArgumentError("not a NetCDF-3 file: expected magic number \"CDF\", got \"{}\"",
                                shown);
  }
  auto version = static_cast<uint8_t>(magic[3]);
  if (version != 1 && version != 2 && version != 5) {
    return UnsupportedError(
        "unsupported NetCDF-3 format version {}: expected 1 (classic), 2 (64-bit offset) or 5 "
        "(CDF-5)",
        version);
  }
  return static_cast<Format>(version);
}

Result<Attribute> ReadAttribute(HeaderReader& r) {
  Attribute a;
  KERCHUNK_ASSIGN_OR_RETURN(a.name, r.Name("attribute name"));
  KERCHUNK_ASSIGN_OR_RETURN(a.type, r.Type("attribute type"));
  uint64_t at = r.bytes().address();
  KERCHUNK_ASSIGN_OR_RETURN(a.count, r.Count("attribute length"));
  auto bytes = CheckedMul(a.count, TypeSize(a.type));
  if (!bytes) {
    return DataLossError(
        "NetCDF-3 header at address {}: attribute \"{}\": {} values of type {} "
        "overflow 64 bits",
        at, a.name, a.count, TypeName(a.type));
  }
  KERCHUNK_ASSIGN_OR_RETURN(std::string_view values, r.Padded(*bytes, "attribute values"));
  a.values = std::string(values);
  return a;
}

Result<std::vector<Attribute>> ReadAttributeList(HeaderReader& r, std::string_view list) {
  KERCHUNK_ASSIGN_OR_RETURN(uint64_t count,
                            r.ListHeader(kTagAttribute, list, 2 * r.count_width() + 4));
  std::vector<Attribute> out;
  for (uint64_t i = 0; i < count; ++i) {
    KERCHUNK_ASSIGN_OR_RETURN(Attribute a, ReadAttribute(r));
    out.push_back(std::move(a));
  }
  return out;
}

Result<std::vector<Dimension>> ReadDimensionList(HeaderReader& r) {
  KERCHUNK_ASSIGN_OR_RETURN(uint64_t count,
                            r.ListHeader(kTagDimension, "dimension list", 2 * r.count_width()));
  std::vector<Dimension> out;
  for (uint64_t i = 0; i < count; ++i) {
    Dimension d;
    KERCHUNK_ASSIGN_OR_RETURN(d.name, r.Name("dimension name"));
    KERCHUNK_ASSIGN_OR_RETURN(d.length, r.Count("dimension length"));
    out.push_back(std::move(d));
  }
  return out;
}

Result<Variable> ReadVariable(HeaderReader& r) {
  Variable v;
  KERCHUNK_ASSIGN_OR_RETURN(v.name, r.Name("variable name"));
  uint64_t at = r.bytes().address();
  KERCHUNK_ASSIGN_OR_RETURN(uint64_t rank, r.Count("variable rank"));
  if (rank > kMaxVariableRank || rank > r.remaining() / r.count_width()) {
    return DataLossError(
        "NetCDF-3 header at address {}: variable \"{}\": expected at most {} dimensions, got {}",
        at, v.name, std::min(kMaxVariableRank, r.remaining() / r.count_width()), rank);
  }
  v.dim_ids.resize(rank);
  for (auto& id : v.dim_ids) {
    KERCHUNK_ASSIGN_OR_RETURN(id, r.Count("dimension id"));
  }
  KERCHUNK_ASSIGN_OR_RETURN(v.attributes, ReadAttributeList(r, "variable attribute list"));
  KERCHUNK_ASSIGN_OR_RETURN(v.type, r.Type("variable type"));
  KERCHUNK_ASSIGN_OR_RETURN(v.vsize, r.Count("vsize"));
  KERCHUNK_ASSIGN_OR_RETURN(v.begin, r.Offset("begin"));
  return v;
}

Result<std::vector<Variable>> ReadVariableList(HeaderReader& r) {
  // name, rank, empty attribute list, type, vsize, begin.
  uint64_t min_entry = 4 * r.count_width() + 8 + r.offset_width();
  KERCHUNK_ASSIGN_OR_RETURN(uint64_t count, r.ListHeader(kTagVariable, "variable list", min_entry));
  std::vector<Variable> out;
  for (uint64_t i = 0; i < count; ++i) {
    KERCHUNK_ASSIGN_OR_RETURN(Variable v, ReadVariable(r));
    out.push_back(std::move(v));
  }
  return out;
}

}  // namespace

uint64_t Header::DimensionLength(uint64_t dim_id) const {
  const Dimension& d = dimensions[dim_id];
  return d.is_record() ? num_records : d.length;
}

Result<Header> ParseHeader(std::span<const std::byte> file) {
  Header h;
  h.file_size = file.size();
  ByteReader magic_reader(file, 0, "NetCDF-3 header");
  KERCHUNK_ASSIGN_OR_RETURN(h.format, ReadMagic(magic_reader));

  HeaderReader r(file, h.format);
  KERCHUNK_RETURN_IF_ERROR(r.bytes().Skip(4));
  KERCHUNK_ASSIGN_OR_RETURN(h.num_records, r.Count("numrecs"));
  uint64_t streaming_marker = r.count_width() == 8 ? UINT64_MAX : UINT32_MAX;
  h.streaming = h.num_records == streaming_marker;
  KERCHUNK_ASSIGN_OR_RETURN(h.dimensions, ReadDimensionList(r));
  KERCHUNK_ASSIGN_OR_RETURN(h.attributes, ReadAttributeList(r, "global attribute list"));
  KERCHUNK_ASSIGN_OR_RETURN(h.variables, ReadVariableList(r));
  h.header_size = r.position();

  KERCHUNK_RETURN_IF_ERROR(internal::CheckNames(h));
  KERCHUNK_RETURN_IF_ERROR(internal::ComputeLayout(h));
  return h;
}

}  // namespace kerchunk::netcdf3
