// Symbol table groups; see the specification links in symbol_table.h.
//
// v1 B-tree node of type 0: "TREE", type 0, level, entries used (2), left and right siblings,
// then keys (heap offsets, L bytes) interleaved with child addresses: key 0, child 0, key 1,
// ... key N. Level 0 children are "SNOD" nodes: version 1, reserved, symbol count (2), then the
// entries: link name offset (O), object header address (O), cache type (4), reserved (4) and a
// 16-byte scratch pad.
#include "kerchunk/hdf5/symbol_table.h"

#include <fmt/format.h>

#include <unordered_set>

#include "kerchunk/hdf5/local_heap.h"

namespace kerchunk::hdf5 {
namespace {

constexpr int kMaxLevels = 64;

class SymbolTableWalk {
 public:
  SymbolTableWalk(const File& file, const LocalHeap& heap) : file_(file), heap_(heap) {}

  Status Node(uint64_t address, int expected_level) {
    const unsigned o = file_.offset_size(), l = file_.length_size();
    KERCHUNK_ASSIGN_OR_RETURN(ByteReader head,
                              file_.ReaderAt(address, 8 + 2 * o, "group B-tree node"));
    if (!seen_.insert(address).second) {
      return DataLossError("group B-tree node at address {}: reached a second time (a cycle)",
                           head.address());
    }
    KERCHUNK_RETURN_IF_ERROR(head.ExpectSignature("TREE"));
    KERCHUNK_ASSIGN_OR_RETURN(uint8_t type, head.U8("node type"));
    if (type != 0) {
      return head.Error(fmt::format("expected node type 0 (group nodes), got {}", type));
    }
    KERCHUNK_ASSIGN_OR_RETURN(uint8_t level, head.U8("node level"));
    if ((expected_level >= 0 && level != expected_level) || level > kMaxLevels) {
      return head.Error(fmt::format("unexpected node level {}", level));
    }
    KERCHUNK_ASSIGN_OR_RETURN(uint16_t entries, head.U16("entries used"));
    const uint64_t size = 8 + 2 * o + (entries + uint64_t{1}) * l + entries * uint64_t{o};
    KERCHUNK_ASSIGN_OR_RETURN(ByteReader r, file_.ReaderAt(address, size, "group B-tree node"));
    KERCHUNK_RETURN_IF_ERROR(r.Skip(8 + 2 * o));
    for (uint16_t i = 0; i < entries; ++i) {
      KERCHUNK_RETURN_IF_ERROR(r.Skip(l));  // key
      KERCHUNK_ASSIGN_OR_RETURN(uint64_t child, file_.ReadAddress(r, "child address"));
      if (level == 0) {
        KERCHUNK_RETURN_IF_ERROR(SymbolNode(child));
      } else {
        KERCHUNK_RETURN_IF_ERROR(Node(child, level - 1));
      }
    }
    return OkStatus();
  }

  std::vector<Link> links;

 private:
  Status SymbolNode(uint64_t address) {
    const unsigned o = file_.offset_size();
    KERCHUNK_ASSIGN_OR_RETURN(ByteReader head, file_.ReaderAt(address, 8, "symbol table node"));
    if (!seen_.insert(address).second) {
      return DataLossError("symbol table node at address {}: reached a second time",
                           head.address());
    }
    KERCHUNK_RETURN_IF_ERROR(head.ExpectSignature("SNOD"));
    KERCHUNK_ASSIGN_OR_RETURN(uint8_t version, head.U8("version"));
    if (version != 1) return head.Error(fmt::format("expected version 1, got {}", version));
    KERCHUNK_RETURN_IF_ERROR(head.Skip(1));
    KERCHUNK_ASSIGN_OR_RETURN(uint16_t count, head.U16("number of symbols"));
    const uint64_t entry_size = 2 * uint64_t{o} + 24;
    KERCHUNK_ASSIGN_OR_RETURN(ByteReader r,
                              file_.ReaderAt(address, 8 + count * entry_size, "symbol table node"));
    KERCHUNK_RETURN_IF_ERROR(r.Skip(8));
    for (uint16_t i = 0; i < count; ++i) {
      KERCHUNK_ASSIGN_OR_RETURN(uint64_t name_offset, file_.ReadAddress(r, "link name offset"));
      Link link;
      KERCHUNK_ASSIGN_OR_RETURN(link.address, file_.ReadAddress(r, "object header address"));
      KERCHUNK_ASSIGN_OR_RETURN(uint32_t cache_type, r.U32("cache type"));
      KERCHUNK_RETURN_IF_ERROR(r.Skip(4 + 16));
      KERCHUNK_ASSIGN_OR_RETURN(std::string_view name, heap_.StringAt(name_offset));
      link.name = std::string(name);
      // Cache type 2: a soft link, whose value is in the scratch pad, not an object.
      if (cache_type == 2) {
        link.type = LinkType::kSoft;
        link.address = kUndefinedAddress;
      }
      links.push_back(std::move(link));
    }
    return OkStatus();
  }

  const File& file_;
  const LocalHeap& heap_;
  std::unordered_set<uint64_t> seen_;
};

}  // namespace

Result<std::vector<Link>> ReadSymbolTableLinks(const File& file, ByteReader message) {
  KERCHUNK_ASSIGN_OR_RETURN(uint64_t btree, file.ReadAddress(message, "v1 B-tree address"));
  KERCHUNK_ASSIGN_OR_RETURN(uint64_t heap_address, file.ReadAddress(message, "local heap address"));
  KERCHUNK_ASSIGN_OR_RETURN(LocalHeap heap, LocalHeap::Open(file, heap_address));
  SymbolTableWalk walk(file, heap);
  if (btree != kUndefinedAddress) KERCHUNK_RETURN_IF_ERROR(walk.Node(btree, -1));
  return std::move(walk.links);
}

}  // namespace kerchunk::hdf5
