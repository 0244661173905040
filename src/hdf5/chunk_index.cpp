// Dispatch from a dataset's layout to the walker of its chunk index type.
#include "kerchunk/hdf5/chunk_index.h"

#include "kerchunk/hdf5/btree_v1.h"
#include "kerchunk/hdf5/btree_v2.h"
#include "kerchunk/hdf5/extensible_array.h"
#include "kerchunk/hdf5/fixed_array.h"
#include "kerchunk/hdf5/implicit_index.h"
#include "kerchunk/hdf5/single_chunk.h"

namespace kerchunk::hdf5 {

Status WalkChunkIndex(const File& file, const DataLayout& layout, const ChunkedDatasetInfo& info,
                      const ChunkVisitor& visit) {
  KERCHUNK_ASSIGN_OR_RETURN(auto geometry, internal::ChunkGeometry::Make(layout, info));
  switch (layout.index_type) {
    case ChunkIndexType::kBTreeV1:
      return internal::WalkBTreeV1(file, layout, geometry, visit);
    case ChunkIndexType::kSingleChunk:
      return internal::WalkSingleChunk(file, layout, geometry, visit);
    case ChunkIndexType::kImplicit:
      return internal::WalkImplicitIndex(file, layout, geometry, visit);
    case ChunkIndexType::kFixedArray:
      return internal::WalkFixedArray(file, layout, geometry, visit);
    case ChunkIndexType::kExtensibleArray:
      return internal::WalkExtensibleArray(file, layout, geometry, visit);
    case ChunkIndexType::kBTreeV2:
      return internal::WalkBTreeV2(file, layout, geometry, visit);
  }
  return InternalError("unknown chunk index type {}", static_cast<int>(layout.index_type));
}

}  // namespace kerchunk::hdf5
