// Implicit index; see the specification link in implicit_index.h.
#include "kerchunk/hdf5/implicit_index.h"

namespace kerchunk::hdf5::internal {
namespace {

constexpr std::string_view kWhat = "implicit chunk index";

// Linear stride of each dimension in the maximum chunk grid (which must be finite).
Result<DimArray> MaxGridStrides(const ChunkGeometry& g, uint64_t where) {
  DimArray down{};
  uint64_t stride = 1;
  for (unsigned d = g.rank; d-- > 0;) {
    down[d] = stride;
    auto next = g.max_chunks[d] == kUnlimited ? std::nullopt : CheckedMul(stride, g.max_chunks[d]);
    if (!next) {
      return DataLossError(
          "{} at address {}: the maximum chunk grid is unlimited or has more "
          "than 2^64 chunks",
          kWhat, where);
    }
    stride = *next;
  }
  return down;
}

}  // namespace

Status WalkImplicitIndex(const File& file, const DataLayout& layout, const ChunkGeometry& g,
                         const ChunkVisitor& visit) {
  if (layout.index_address == kUndefinedAddress) return OkStatus();
  for (unsigned d = 0; d < g.rank; ++d) {
    if (g.chunks[d] == 0) return OkStatus();
  }
  KERCHUNK_ASSIGN_OR_RETURN(uint64_t base, file.ToFileOffset(layout.index_address, kWhat));
  KERCHUNK_ASSIGN_OR_RETURN(DimArray down, MaxGridStrides(g, base));
  // The last chunk of the current shape has the highest address; all before it are in range.
  uint64_t last = 0;
  for (unsigned d = 0; d < g.rank; ++d) {
    if (g.chunks[d] > g.max_chunks[d]) {
      return InvalidArgumentError("{}: dimension {} has {} chunks, more than its maximum {}", kWhat,
                                  d, g.chunks[d], g.max_chunks[d]);
    }
    last += (g.chunks[d] - 1) * down[d];  // cannot overflow: below the grid's total
  }
  auto span = CheckedMul(last + 1, g.chunk_bytes);
  if (!span || !RangeWithin(base, *span, file.bytes().size())) {
    return DataLossError(
        "{} at address {}: {} chunks of {} bytes reach past the end of the file "
        "({} bytes)",
        kWhat, base, last + 1, g.chunk_bytes, file.bytes().size());
  }
  DimArray coords{};
  const std::span<const uint64_t> view(coords.data(), g.rank);
  while (true) {
    uint64_t index = 0;
    for (unsigned d = 0; d < g.rank; ++d) index += coords[d] * down[d];
    KERCHUNK_RETURN_IF_ERROR(visit(view, base + index * g.chunk_bytes, g.chunk_bytes, 0));
    unsigned d = g.rank;
    while (d-- > 0) {
      if (++coords[d] < g.chunks[d]) break;
      coords[d] = 0;
    }
    if (d == ~0u) return OkStatus();  // every dimension wrapped: done
  }
}

}  // namespace kerchunk::hdf5::internal
