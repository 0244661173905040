// Single chunk index; see the specification link in single_chunk.h.
#include "kerchunk/hdf5/single_chunk.h"

namespace kerchunk::hdf5::internal {

Status WalkSingleChunk(const File& file, const DataLayout& layout, const ChunkGeometry& geometry,
                       const ChunkVisitor& visit) {
  if (layout.index_address == kUndefinedAddress) return OkStatus();
  KERCHUNK_ASSIGN_OR_RETURN(uint64_t offset,
                            file.ToFileOffset(layout.index_address, "single chunk index"));
  const DimArray zeros{};
  const auto& single = layout.single_chunk;
  return visit(std::span<const uint64_t>(zeros.data(), geometry.rank), offset,
               single.filtered ? single.filtered_size : geometry.chunk_bytes,
               single.filtered ? single.filter_mask : 0);
}

}  // namespace kerchunk::hdf5::internal
