// Dataspace message versions 1 and 2; see the specification link in dataspace.h.
#include "kerchunk/hdf5/dataspace.h"

#include "kerchunk/util/checked_math.h"

namespace kerchunk::hdf5 {
namespace {

constexpr unsigned kMaxRank = 32;  // H5S_MAX_RANK

// Reads `rank` lengths; an all-ones value (of the length width) becomes kUnlimitedExtent.
Status ReadExtents(const File& file, ByteReader& r, unsigned rank, std::vector<uint64_t>& out,
                   std::string_view field) {
  const unsigned width = file.length_size();
  const uint64_t all_ones = width >= 8 ? ~uint64_t{0} : (uint64_t{1} << (8 * width)) - 1;
  out.resize(rank);
  for (uint64_t& v : out) {
    KERCHUNK_ASSIGN_OR_RETURN(v, r.UVar(width, field));
    if (v == all_ones) v = kUnlimitedExtent;
  }
  return OkStatus();
}

}  // namespace

Result<uint64_t> Dataspace::ElementCount() const {
  if (space_class == DataspaceClass::kNull) return uint64_t{0};
  uint64_t n = 1;
  for (uint64_t d : dims) {
    auto product = CheckedMul(n, d);
    if (!product) return DataLossError("dataspace: element count overflows 64 bits");
    n = *product;
  }
  return n;
}

Result<Dataspace> DecodeDataspace(const File& file, ByteReader r) {
  KERCHUNK_ASSIGN_OR_RETURN(uint8_t version, r.U8("version"));
  if (version != 1 && version != 2) {
    return r.Error(fmt::format("expected version 1 or 2, got {}", version));
  }
  KERCHUNK_ASSIGN_OR_RETURN(uint8_t rank, r.U8("dimensionality"));
  if (rank > kMaxRank) return r.Error(fmt::format("expected rank 0..32, got {}", rank));
  KERCHUNK_ASSIGN_OR_RETURN(uint8_t flags, r.U8("flags"));
  Dataspace space;
  if (version == 1) {
    KERCHUNK_RETURN_IF_ERROR(r.Skip(5));  // reserved
    space.space_class = rank == 0 ? DataspaceClass::kScalar : DataspaceClass::kSimple;
  } else {
    KERCHUNK_ASSIGN_OR_RETURN(uint8_t type, r.U8("dataspace type"));
    if (type > 2) return r.Error(fmt::format("expected dataspace type 0..2, got {}", type));
    space.space_class = static_cast<DataspaceClass>(type);
    if (space.space_class != DataspaceClass::kSimple && rank != 0) {
      return r.Error(fmt::format("scalar or null dataspace with rank {}", rank));
    }
  }
  KERCHUNK_RETURN_IF_ERROR(ReadExtents(file, r, rank, space.dims, "dimension size"));
  if (flags & 0x01) {
    KERCHUNK_RETURN_IF_ERROR(ReadExtents(file, r, rank, space.max_dims, "maximum dimension size"));
  } else {
    space.max_dims = space.dims;
  }
  return space;
}

}  // namespace kerchunk::hdf5
