// Shared messages; see the specification links in shared_message.h.
//
// Pointer: version (1..3), type; version 1: 6 reserved bytes and a symbol table entry (name
// offset, object header address);
// version 2: the address; version 3: type 1 = an 8-byte heap ID in the SOHM heap, type 2 = the
// object header address. Superblock extension message 0x000F gives the table's address and
// index count; each "SMTB" index entry is version, index type, message type flags (bit n for
// message type n), minimum size, list and B-tree cutoffs, message count, index address and heap
// address.
#include "kerchunk/hdf5/shared_message.h"

#include <fmt/format.h>

#include "kerchunk/hdf5/fractal_heap.h"

namespace kerchunk::hdf5 {
namespace {

constexpr uint16_t kSharedMessageTableMessage = 0x000F;
constexpr int kMaxSharingDepth = 8;

// The heap of the SOHM index that holds messages of `type`.
Result<uint64_t> SohmHeapAddress(const File& file, uint16_t type) {
  const uint64_t extension = file.superblock().extension_address;
  if (extension == kUndefinedAddress) {
    return DataLossError(
        "shared message in the SOHM heap, but the file has no superblock "
        "extension");
  }
  KERCHUNK_ASSIGN_OR_RETURN(HeaderMessage m,
                            FindHeaderMessage(file, extension, kSharedMessageTableMessage));
  ByteReader r = m.Reader("shared message table message");
  KERCHUNK_RETURN_IF_ERROR(r.Skip(1));  // version
  KERCHUNK_ASSIGN_OR_RETURN(uint64_t table, file.ReadAddress(r, "table address"));
  KERCHUNK_ASSIGN_OR_RETURN(uint8_t indexes, r.U8("number of indices"));
  const unsigned o = file.offset_size();
  const uint64_t entry = 1 + 1 + 2 + 4 + 2 + 2 + 2 + 2 * uint64_t{o};
  KERCHUNK_ASSIGN_OR_RETURN(ByteReader t, file.ReaderAt(table, 4 + indexes * entry,
                                                        "shared object header message table"));
  KERCHUNK_RETURN_IF_ERROR(t.ExpectSignature("SMTB"));
  for (unsigned i = 0; i < indexes; ++i) {
    KERCHUNK_RETURN_IF_ERROR(t.Skip(2));  // version, index type
    KERCHUNK_ASSIGN_OR_RETURN(uint16_t flags, t.U16("message type flags"));
    KERCHUNK_RETURN_IF_ERROR(t.Skip(4 + 2 + 2 + 2 + o));
    KERCHUNK_ASSIGN_OR_RETURN(uint64_t heap, file.ReadAddress(t, "fractal heap address"));
    if (type < 16 && (flags & (1u << type))) return heap;
  }
  return DataLossError(
      "shared object header message table at address {}: no index holds "
      "messages of type 0x{:04x}",
      t.address() - t.position(), type);
}

}  // namespace

Result<HeaderMessage> ReadSharedHeapMessage(const File& file, uint16_t type,
                                            std::span<const std::byte> id) {
  KERCHUNK_ASSIGN_OR_RETURN(uint64_t heap_address, SohmHeapAddress(file, type));
  KERCHUNK_ASSIGN_OR_RETURN(FractalHeap heap, FractalHeap::Open(file, heap_address));
  KERCHUNK_ASSIGN_OR_RETURN(std::span<const std::byte> data, heap.Object(id));
  HeaderMessage m;
  m.type = type;
  m.data = data;
  const auto* begin = file.bytes().data();
  const bool inside = data.data() >= begin && data.data() <= begin + file.bytes().size();
  m.file_offset = inside ? static_cast<uint64_t>(data.data() - begin) : 0;
  return m;
}

namespace {

Result<HeaderMessage> Resolve(const File& file, uint16_t type, const HeaderMessage& pointer,
                              int depth) {
  if (depth > kMaxSharingDepth) {
    return DataLossError("shared message at address {}: shared more than {} times over",
                         pointer.file_offset, kMaxSharingDepth);
  }
  ByteReader r = pointer.Reader("shared message");
  KERCHUNK_ASSIGN_OR_RETURN(uint8_t version, r.U8("version"));
  KERCHUNK_ASSIGN_OR_RETURN(uint8_t kind, r.U8("type"));
  HeaderMessage target;
  if (version == 3 && kind == 1) {
    KERCHUNK_ASSIGN_OR_RETURN(auto id, r.Bytes(8, "heap ID"));
    KERCHUNK_ASSIGN_OR_RETURN(target, ReadSharedHeapMessage(file, type, id));
  } else if (version >= 1 && version <= 3) {
    // Version 1 stores a whole symbol table entry: skip the reserved bytes and the entry's
    // link name offset.
    if (version == 1) KERCHUNK_RETURN_IF_ERROR(r.Skip(6 + file.length_size()));
    KERCHUNK_ASSIGN_OR_RETURN(uint64_t address, file.ReadAddress(r, "object header address"));
    KERCHUNK_ASSIGN_OR_RETURN(target, FindHeaderMessage(file, address, type));
  } else {
    return r.Error(fmt::format("expected version 1..3, got {}", version));
  }
  if (target.flags & kMessageFlagShared) return Resolve(file, type, target, depth + 1);
  return target;
}

}  // namespace

Result<HeaderMessage> ResolveSharedMessage(const File& file, uint16_t type,
                                           const HeaderMessage& pointer) {
  return Resolve(file, type, pointer, 0);
}

}  // namespace kerchunk::hdf5
