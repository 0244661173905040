// Version 1 B-tree (type 1, raw data chunks) walk; see the specification link in btree_v1.h.
//
// Node: "TREE", node type (1), level, entries used (2), left and right sibling addresses, then
// entries + 1 keys interleaved with entries child addresses. A type-1 key is the chunk's stored
// size (4), filter mask (4) and rank + 1 element offsets (8 each; the last is the element-size
// dimension, always 0). In a leaf (level 0) key i describes the chunk at child address i.
#include "kerchunk/hdf5/btree_v1.h"

#include <unordered_set>

namespace kerchunk::hdf5::internal {
namespace {

constexpr std::string_view kNode = "v1 B-tree node";

class BTreeV1Walk {
 public:
  BTreeV1Walk(const File& file, const ChunkGeometry& g, const ChunkVisitor& visit)
      : file_(file), g_(g), visit_(visit) {}

  Status Node(uint64_t address, int expected_level);

 private:
  Status Leaf(ByteReader& r, uint16_t entries);
  Status Internal(ByteReader& r, uint16_t entries, int level);

  const File& file_;
  const ChunkGeometry& g_;
  const ChunkVisitor& visit_;
  std::unordered_set<uint64_t> seen_;
  DimArray coords_{};
};

Status BTreeV1Walk::Node(uint64_t address, int expected_level) {
  const unsigned o = file_.offset_size();
  KERCHUNK_ASSIGN_OR_RETURN(ByteReader head, file_.ReaderAt(address, 8 + 2 * o, kNode));
  const uint64_t where = head.address();
  if (!seen_.insert(address).second) {
    return DataLossError(
        "{} at address {}: reached a second time (the tree has a cycle or a "
        "shared subtree)",
        kNode, where);
  }
  KERCHUNK_RETURN_IF_ERROR(head.ExpectSignature("TREE"));
  KERCHUNK_ASSIGN_OR_RETURN(uint8_t type, head.U8("node type"));
  if (type != 1) {
    return DataLossError("{} at address {}: expected node type 1 (raw data chunks), got {}", kNode,
                         where, type);
  }
  KERCHUNK_ASSIGN_OR_RETURN(uint8_t level, head.U8("node level"));
  if (expected_level >= 0 && level != expected_level) {
    return DataLossError("{} at address {}: expected level {} below its parent, got {}", kNode,
                         where, expected_level, level);
  }
  KERCHUNK_ASSIGN_OR_RETURN(uint16_t entries, head.U16("entries used"));
  const uint64_t key_size = 8 + 8 * uint64_t{g_.rank + 1};
  const uint64_t size = 8 + 2 * o + (entries + uint64_t{1}) * key_size + entries * uint64_t{o};
  KERCHUNK_ASSIGN_OR_RETURN(ByteReader r, file_.ReaderAt(address, size, kNode));
  KERCHUNK_RETURN_IF_ERROR(r.Skip(8 + 2 * o));
  return level == 0 ? Leaf(r, entries) : Internal(r, entries, level);
}

Status BTreeV1Walk::Leaf(ByteReader& r, uint16_t entries) {
  const std::span<const uint64_t> coords(coords_.data(), g_.rank);
  for (uint16_t i = 0; i < entries; ++i) {
    const uint64_t key_at = r.address();
    KERCHUNK_ASSIGN_OR_RETURN(uint32_t size, r.U32("chunk size"));
    KERCHUNK_ASSIGN_OR_RETURN(uint32_t mask, r.U32("filter mask"));
    for (unsigned d = 0; d < g_.rank; ++d) {
      KERCHUNK_ASSIGN_OR_RETURN(uint64_t offset, r.U64("chunk offset"));
      if (offset % g_.chunk_dims[d] != 0) {
        return DataLossError(
            "{} key at address {}: chunk offset {} in dimension {} is not a "
            "multiple of the chunk extent {}",
            kNode, key_at, offset, d, g_.chunk_dims[d]);
      }
      coords_[d] = offset / g_.chunk_dims[d];
    }
    KERCHUNK_RETURN_IF_ERROR(r.Skip(8));  // element-size dimension offset
    KERCHUNK_ASSIGN_OR_RETURN(uint64_t child, file_.ReadAddress(r, "chunk address"));
    KERCHUNK_ASSIGN_OR_RETURN(uint64_t offset, ChunkFileOffset(file_, child, kNode, key_at));
    KERCHUNK_RETURN_IF_ERROR(visit_(coords, offset, size, mask));
  }
  return OkStatus();
}

Status BTreeV1Walk::Internal(ByteReader& r, uint16_t entries, int level) {
  const uint64_t key_size = 8 + 8 * uint64_t{g_.rank + 1};
  for (uint16_t i = 0; i < entries; ++i) {
    KERCHUNK_RETURN_IF_ERROR(r.Skip(key_size));
    KERCHUNK_ASSIGN_OR_RETURN(uint64_t child, file_.ReadAddress(r, "child address"));
    KERCHUNK_RETURN_IF_ERROR(Node(child, level - 1));
  }
  return OkStatus();
}

}  // namespace

Status WalkBTreeV1(const File& file, const DataLayout& layout, const ChunkGeometry& geometry,
                   const ChunkVisitor& visit) {
  if (layout.index_address == kUndefinedAddress) return OkStatus();
  BTreeV1Walk walk(file, geometry, visit);
  return walk.Node(layout.index_address, -1);
}

}  // namespace kerchunk::hdf5::internal
