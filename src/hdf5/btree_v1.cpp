// Version 1 B-tree (type 1, raw data chunks) walk; see the specification link in btree_v1.h.
//
// Node: "TREE", node type (1), level, entries used (2), left and right sibling addresses, then
// entries + 1 keys interleaved with entries child addresses. A type-1 key is the chunk's stored
// size (4), filter mask (4) and rank + 1 element offsets (8 each; the last is the element-size
// dimension, always 0). In a leaf (level 0) key i describes the chunk at child address i.
#include "kerchunk/hdf5/btree_v1.h"

#include <array>
#include <optional>
#include <unordered_set>

#include "kerchunk/util/checked_math.h"

namespace kerchunk::hdf5::internal {
namespace {

constexpr std::string_view kNode = "v1 B-tree node";

class BTreeV1Walk {
 public:
  BTreeV1Walk(const File& file, const ChunkGeometry& g, const ChunkVisitor& visit)
      : file_(file), g_(g), visit_(visit) {
    for (unsigned d = 0; d < g.rank; ++d) extents_[d] = ExactDivisor(g.chunk_dims[d]);
  }

  Status Node(uint64_t address, int expected_level);

 private:
  Status Leaf(ByteReader& r, uint16_t entries);
  Status Internal(ByteReader& r, uint16_t entries, int level);

  const File& file_;
  const ChunkGeometry& g_;
  const ChunkVisitor& visit_;
  std::unordered_set<uint64_t> seen_;
  DimArray coords_{};
  std::array<ExactDivisor, kMaxRank> extents_;  // chunk offset -> chunk coordinate
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

// Node() checked that the node holds all its entries, so each entry (key, then chunk address)
// is taken as one checked span and its fields loaded at their fixed offsets: a leaf is most of
// a large index, and field-by-field reads cost several checks and Results per chunk.
Status BTreeV1Walk::Leaf(ByteReader& r, uint16_t entries) {
  const std::span<const uint64_t> coords(coords_.data(), g_.rank);
  const size_t key_size = 8 + 8 * size_t{g_.rank + 1};
  const size_t entry_size = key_size + file_.offset_size();
  for (uint16_t i = 0; i < entries; ++i) {
    const uint64_t key_at = r.address();
    KERCHUNK_ASSIGN_OR_RETURN(std::span<const std::byte> entry, r.Bytes(entry_size, "chunk key"));
    const uint32_t size = LoadLittleEndian<uint32_t>(entry, 0);
    const uint32_t mask = LoadLittleEndian<uint32_t>(entry, 4);
    for (unsigned d = 0; d < g_.rank; ++d) {
      const uint64_t offset = LoadLittleEndian<uint64_t>(entry, 8 + 8 * size_t{d});
      const std::optional<uint64_t> coord = extents_[d].Divide(offset);
      if (!coord) {
        return DataLossError(
            "{} key at address {}: chunk offset {} in dimension {} is not a "
            "multiple of the chunk extent {}",
            kNode, key_at, offset, d, g_.chunk_dims[d]);
      }
      coords_[d] = *coord;
    }
    // The element-size dimension's offset (8 bytes) ends the key; the chunk address follows.
    const uint64_t child = file_.AddressAt(entry, key_size);
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
