// Version 2 B-tree chunk index walk; see the specification link in btree_v2.h.
//
// Header "BTHD": version 0, type, node size (4), record size (2), depth (2), split and merge
// percent, root address (O), root record count (2), total records (L), checksum. Nodes are
// node-size bytes: signature, version 0, type, the records, (internal only) one more child
// pointer than records, checksum. A child pointer is the child's address, its record count and,
// when the child is itself internal, the total number of records below it.
#include "kerchunk/hdf5/btree_v2.h"

#include <bit>
#include <unordered_set>
#include <vector>

namespace kerchunk::hdf5::internal {
namespace {

// libhdf5's prefix of every node: signature, version, type and checksum.
constexpr uint64_t kNodeOverhead = 10;

// Bytes needed to store a count up to `limit` (libhdf5's H5VM_limit_enc_size).
unsigned CountWidth(uint64_t limit) { return (std::bit_width(limit) - (limit ? 1 : 0)) / 8 + 1; }

// Capacity of the nodes at one depth (libhdf5's H5B2_node_info_t).
struct Level {
  uint64_t max_records = 0;  // records a node of this depth can hold
  uint64_t max_total = 0;    // records below (and in) a node of this depth
  unsigned total_width = 0;  // bytes of a "total records" field describing such a node
};

struct Tree {
  uint8_t type = 0;
  uint32_t node_size = 0;
  uint16_t record_size = 0;
  unsigned size_width = 0;  // type 11: bytes of the chunk size field
  unsigned count_width = 0;
  std::vector<Level> levels;  // index = depth (0 = leaves)
};

Status ComputeLevels(const ByteReader& r, Tree& t, uint16_t depth, unsigned offset_size) {
  if (t.node_size <= kNodeOverhead || t.record_size == 0 ||
      (t.node_size - kNodeOverhead) / t.record_size == 0) {
    return r.Error(
        fmt::format("node size {} holds no record of {} bytes", t.node_size, t.record_size));
  }
  Level leaf;
  leaf.max_records = (t.node_size - kNodeOverhead) / t.record_size;
  leaf.max_total = leaf.max_records;
  t.levels.push_back(leaf);
  t.count_width = CountWidth(leaf.max_records);
  for (unsigned d = 1; d <= depth; ++d) {
    const Level& below = t.levels[d - 1];
    const uint64_t pointer = offset_size + t.count_width + (d > 1 ? below.total_width : 0);
    Level level;
    if (t.node_size > kNodeOverhead + pointer) {
      level.max_records = (t.node_size - kNodeOverhead - pointer) / (t.record_size + pointer);
    }
    auto total = CheckedMul(level.max_records + 1, below.max_total);
    if (total) total = CheckedAdd(*total, level.max_records);
    if (level.max_records == 0 || !total) {
      return r.Error(
          fmt::format("depth {} is impossible for nodes of {} bytes", depth, t.node_size));
    }
    level.max_total = *total;
    level.total_width = CountWidth(level.max_total);
    t.levels.push_back(level);
  }
  return OkStatus();
}

// The header fields both walks read; the caller checks the record type against what it
// expects before the node capacities are computed.
struct Header {
  Tree tree;
  uint16_t depth = 0;
  uint64_t root = kUndefinedAddress;
  uint16_t root_records = 0;
};

// The bytes of the header at `address`: the fields, the total record count and the checksum.
Result<ByteReader> HeaderReader(const File& file, uint64_t address) {
  const unsigned o = file.offset_size(), l = file.length_size();
  return file.ReaderAt(address, 16 + o + 2 + l + 4, "v2 B-tree header");
}

// Reads the header fields from `r` (HeaderReader), which then stands after them.
Result<Header> ReadHeader(const File& file, ByteReader& r) {
  KERCHUNK_RETURN_IF_ERROR(r.ExpectSignature("BTHD"));
  KERCHUNK_ASSIGN_OR_RETURN(uint8_t version, r.U8("version"));
  if (version != 0) return r.Error(fmt::format("expected version 0, got {}", version));
  Header h;
  KERCHUNK_ASSIGN_OR_RETURN(h.tree.type, r.U8("record type"));
  KERCHUNK_ASSIGN_OR_RETURN(h.tree.node_size, r.U32("node size"));
  KERCHUNK_ASSIGN_OR_RETURN(h.tree.record_size, r.U16("record size"));
  KERCHUNK_ASSIGN_OR_RETURN(h.depth, r.U16("depth"));
  KERCHUNK_RETURN_IF_ERROR(r.Skip(2));  // split and merge percent
  KERCHUNK_ASSIGN_OR_RETURN(h.root, file.ReadAddress(r, "root node address"));
  KERCHUNK_ASSIGN_OR_RETURN(h.root_records, r.U16("root record count"));
  return h;
}

// The walk of the nodes in key order, each record handed over as bytes: every node's header is
// checked here, once, for both the chunk index and the generic record walk.
class RecordWalk {
 public:
  RecordWalk(const File& file, const Tree& t, const BTreeV2RecordVisitor& visit)
      : file_(file), t_(t), visit_(visit) {}

  Status Node(uint64_t address, uint64_t records, unsigned depth) {
    const std::string_view what = depth == 0 ? "v2 B-tree leaf node" : "v2 B-tree internal node";
    KERCHUNK_ASSIGN_OR_RETURN(ByteReader r, file_.ReaderAt(address, t_.node_size, what));
    if (!seen_.insert(address).second) {
      return DataLossError(
          "{} at address {}: reached a second time (the tree has a cycle or a shared subtree)",
          what, r.address());
    }
    KERCHUNK_RETURN_IF_ERROR(r.ExpectSignature(depth == 0 ? "BTLF" : "BTIN"));
    KERCHUNK_ASSIGN_OR_RETURN(uint8_t version, r.U8("version"));
    if (version != 0) return r.Error(fmt::format("expected version 0, got {}", version));
    KERCHUNK_ASSIGN_OR_RETURN(uint8_t type, r.U8("record type"));
    if (type != t_.type) {
      return r.Error(fmt::format("expected record type {} (as the header), got {}", t_.type, type));
    }
    if (records > t_.levels[depth].max_records) {
      return r.Error(fmt::format("expected at most {} records at depth {}, got {}",
                                 t_.levels[depth].max_records, depth, records));
    }
    // Child pointers follow all the records; walk in key order: child i, then record i.
    KERCHUNK_ASSIGN_OR_RETURN(ByteReader record_reader, r.Sub(records * t_.record_size, what));
    if (depth == 0) {
      for (uint64_t i = 0; i < records; ++i) KERCHUNK_RETURN_IF_ERROR(Record(record_reader));
      return OkStatus();
    }
    const unsigned total_width = depth > 1 ? t_.levels[depth - 1].total_width : 0;
    for (uint64_t i = 0; i <= records; ++i) {
      KERCHUNK_ASSIGN_OR_RETURN(uint64_t child, file_.ReadAddress(r, "child address"));
      KERCHUNK_ASSIGN_OR_RETURN(uint64_t count, r.UVar(t_.count_width, "child record count"));
      if (total_width) KERCHUNK_RETURN_IF_ERROR(r.Skip(total_width));
      KERCHUNK_RETURN_IF_ERROR(Node(child, count, depth - 1));
      if (i < records) KERCHUNK_RETURN_IF_ERROR(Record(record_reader));
    }
    return OkStatus();
  }

 private:
  Status Record(ByteReader& r) {
    const uint64_t at = r.address();
    KERCHUNK_ASSIGN_OR_RETURN(auto bytes, r.Bytes(t_.record_size, "record"));
    return visit_(bytes, at);
  }

  const File& file_;
  const Tree& t_;
  const BTreeV2RecordVisitor& visit_;
  std::unordered_set<uint64_t> seen_;
};

// One chunk record (type 10: unfiltered, type 11: filtered): the chunk's address, its size and
// filter mask (type 11), then its scaled coordinates. WalkBTreeV2 checked the record size
// against the rank, so the fields fit the record.
Status VisitChunkRecord(const File& file, const Tree& t, const ChunkGeometry& g,
                        const ChunkVisitor& visit, std::span<const std::byte> bytes, uint64_t at) {
  ByteReader r(bytes, at, "v2 B-tree record");
  KERCHUNK_ASSIGN_OR_RETURN(uint64_t address, file.ReadAddress(r, "chunk address"));
  uint64_t size = g.chunk_bytes;
  uint32_t mask = 0;
  if (t.type == 11) {
    KERCHUNK_ASSIGN_OR_RETURN(size, r.UVar(t.size_width, "chunk size"));
    KERCHUNK_ASSIGN_OR_RETURN(mask, r.U32("filter mask"));
  }
  DimArray coords{};
  for (unsigned d = 0; d < g.rank; ++d) {
    KERCHUNK_ASSIGN_OR_RETURN(coords[d], r.U64("scaled offset"));
  }
  if (address == kUndefinedAddress) return OkStatus();
  KERCHUNK_ASSIGN_OR_RETURN(uint64_t offset,
                            ChunkFileOffset(file, address, "v2 B-tree record", at));
  return visit(std::span<const uint64_t>(coords.data(), g.rank), offset, size, mask);
}

}  // namespace

Status WalkBTreeV2(const File& file, const DataLayout& layout, const ChunkGeometry& geometry,
                   const ChunkVisitor& visit) {
  if (layout.index_address == kUndefinedAddress) return OkStatus();
  KERCHUNK_ASSIGN_OR_RETURN(ByteReader r, HeaderReader(file, layout.index_address));
  KERCHUNK_ASSIGN_OR_RETURN(Header h, ReadHeader(file, r));
  Tree& t = h.tree;
  const uint64_t fixed = file.offset_size() + 8 * uint64_t{geometry.rank};
  if (t.type == 10 && t.record_size != fixed) {
    return r.Error(fmt::format("type 10 records of rank {}: expected record size {}, got {}",
                               geometry.rank, fixed, t.record_size));
  }
  if (t.type == 11) {
    if (t.record_size < fixed + 4 + 1 || t.record_size > fixed + 4 + 8) {
      return r.Error(fmt::format("type 11 records of rank {}: expected record size {}..{}, got {}",
                                 geometry.rank, fixed + 5, fixed + 12, t.record_size));
    }
    t.size_width = static_cast<unsigned>(t.record_size - fixed - 4);
  }
  if (t.type != 10 && t.type != 11) {
    return r.Error(fmt::format("expected record type 10 or 11 (dataset chunks), got {}", t.type));
  }
  KERCHUNK_RETURN_IF_ERROR(ComputeLevels(r, t, h.depth, file.offset_size()));
  if (h.root == kUndefinedAddress) return OkStatus();
  const BTreeV2RecordVisitor record = [&](std::span<const std::byte> bytes, uint64_t at) {
    return VisitChunkRecord(file, t, geometry, visit, bytes, at);
  };
  RecordWalk walk(file, t, record);
  return walk.Node(h.root, h.root_records, h.depth);
}

Status ForEachBTreeV2Record(const File& file, uint64_t address, uint8_t expected_type,
                            const BTreeV2RecordVisitor& visit) {
  if (address == kUndefinedAddress) return OkStatus();
  KERCHUNK_ASSIGN_OR_RETURN(ByteReader r, HeaderReader(file, address));
  KERCHUNK_ASSIGN_OR_RETURN(Header h, ReadHeader(file, r));
  if (h.tree.type != expected_type) {
    return r.Error(fmt::format("expected record type {}, got {}", expected_type, h.tree.type));
  }
  KERCHUNK_RETURN_IF_ERROR(ComputeLevels(r, h.tree, h.depth, file.offset_size()));
  if (h.root == kUndefinedAddress) return OkStatus();
  RecordWalk walk(file, h.tree, visit);
  return walk.Node(h.root, h.root_records, h.depth);
}

}  // namespace kerchunk::hdf5::internal
