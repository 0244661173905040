// Chunk grid arithmetic shared by the chunk-index walkers.
#include "kerchunk/hdf5/chunk_geometry.h"

#include "kerchunk/hdf5/file.h"
#include "kerchunk/util/checked_math.h"

namespace kerchunk::hdf5::internal {

Result<ChunkGeometry> ChunkGeometry::Make(const DataLayout& layout,
                                          const ChunkedDatasetInfo& info) {
  if (layout.layout_class != LayoutClass::kChunked) {
    return InvalidArgumentError("the dataset's layout is not chunked");
  }
  ChunkGeometry g;
  g.rank = static_cast<unsigned>(layout.rank());
  if (g.rank == 0 || g.rank > kMaxRank) {
    return DataLossError("chunked layout: expected rank 1..{}, got {}", kMaxRank, g.rank);
  }
  const auto& max_dims = info.max_dims.empty() ? info.dims : info.max_dims;
  if (info.dims.size() != g.rank || max_dims.size() != g.rank) {
    return InvalidArgumentError(
        "the dataset has {} dimensions ({} maximum dimensions) but its chunks have {}",
        info.dims.size(), max_dims.size(), g.rank);
  }
  KERCHUNK_ASSIGN_OR_RETURN(g.chunk_bytes, layout.ChunkBytes());
  for (unsigned d = 0; d < g.rank; ++d) {
    g.chunk_dims[d] = layout.chunk_dims[d];
    g.dims[d] = info.dims[d];
    g.max_dims[d] = max_dims[d];
    g.chunks[d] = CeilDiv(g.dims[d], g.chunk_dims[d]);
    g.max_chunks[d] =
        max_dims[d] == kUnlimited ? kUnlimited : CeilDiv(max_dims[d], g.chunk_dims[d]);
  }
  return g;
}

ChunkOdometer::ChunkOdometer(unsigned rank, const DimArray& extents,
                             const std::array<uint8_t, kMaxRank>& order)
    : rank_(rank), extents_(extents), order_(order) {
  // An empty extent has no chunks at all; treating it as 1 keeps Seek/Next free of division by
  // zero, and callers never ask for an index there.
  for (auto& e : extents_) e = e == 0 ? 1 : e;
  uint64_t stride = 1;
  for (unsigned k = rank_; k-- > 0;) {
    down_[k] = stride;
    auto next = CheckedMul(stride, extents_[order_[k]]);
    stride = next ? *next : ~uint64_t{0};
  }
}

void ChunkOdometer::Seek(uint64_t index) {
  for (unsigned k = 0; k < rank_; ++k) {
    coords_[order_[k]] = index / down_[k];
    index %= down_[k];
  }
}

std::array<uint8_t, kMaxRank> RowMajorOrder(unsigned rank) {
  std::array<uint8_t, kMaxRank> order{};
  for (unsigned d = 0; d < rank; ++d) order[d] = static_cast<uint8_t>(d);
  return order;
}

Result<uint64_t> ChunkFileOffset(const File& file, uint64_t address, std::string_view what,
                                 uint64_t where) {
  if (address == kUndefinedAddress) {
    return DataLossError("{} at address {}: a chunk has the undefined address", what, where);
  }
  auto offset = CheckedAdd(address, file.superblock().base_address);
  if (!offset) {
    return DataLossError("{} at address {}: chunk address {} overflows with the base address", what,
                         where, address);
  }
  return *offset;
}

}  // namespace kerchunk::hdf5::internal
