// Global heap collections; see the specification link in global_heap.h.
//
// Collection: "GCOL", version 1, 3 reserved bytes, collection size (L, the whole collection),
// then objects: index (2), reference count (2), 4 reserved bytes, object size (L), the data
// padded to a multiple of 8 bytes. Object index 0 is the free space and ends the list.
#include "kerchunk/hdf5/global_heap.h"

#include <fmt/format.h>

namespace kerchunk::hdf5 {

namespace {

// Indexes every object of the collection at `address` (the first of a repeated index wins).
Result<std::unordered_map<uint32_t, std::span<const std::byte>>> IndexCollection(const File& file,
                                                                                 uint64_t address) {
  KERCHUNK_ASSIGN_OR_RETURN(ByteReader head,
                            file.ReaderAt(address, 8 + file.length_size(), "global heap"));
  KERCHUNK_RETURN_IF_ERROR(head.ExpectSignature("GCOL"));
  KERCHUNK_ASSIGN_OR_RETURN(uint8_t version, head.U8("version"));
  if (version != 1) return head.Error(fmt::format("expected version 1, got {}", version));
  KERCHUNK_RETURN_IF_ERROR(head.Skip(3));
  KERCHUNK_ASSIGN_OR_RETURN(uint64_t size, file.ReadLength(head, "collection size"));
  KERCHUNK_ASSIGN_OR_RETURN(ByteReader r, file.ReaderAt(address, size, "global heap"));
  KERCHUNK_RETURN_IF_ERROR(r.Skip(8 + file.length_size()));
  std::unordered_map<uint32_t, std::span<const std::byte>> objects;
  const uint64_t object_header = 8 + file.length_size();
  while (r.remaining() >= object_header) {
    KERCHUNK_ASSIGN_OR_RETURN(uint16_t index, r.U16("object index"));
    if (index == 0) break;                // free space up to the end of the collection
    KERCHUNK_RETURN_IF_ERROR(r.Skip(6));  // reference count, reserved
    KERCHUNK_ASSIGN_OR_RETURN(uint64_t object_size, file.ReadLength(r, "object size"));
    KERCHUNK_ASSIGN_OR_RETURN(std::span<const std::byte> data, r.Bytes(object_size, "object"));
    objects.emplace(index, data);
    const uint64_t padding = (8 - object_size % 8) % 8;
    if (padding > r.remaining()) break;
    KERCHUNK_RETURN_IF_ERROR(r.Skip(padding));
  }
  return objects;
}

Result<std::span<const std::byte>> Find(
    const std::unordered_map<uint32_t, std::span<const std::byte>>& objects, GlobalHeapId id,
    const File& file) {
  auto it = objects.find(id.index);
  if (it == objects.end()) {
    auto offset = file.ToFileOffset(id.collection, "global heap");
    return NotFoundError("global heap at address {}: no object with index {}",
                         offset.ok() ? *offset : id.collection, id.index);
  }
  return it->second;
}

}  // namespace

Result<std::span<const std::byte>> ReadGlobalHeapObject(const File& file, GlobalHeapId id) {
  KERCHUNK_ASSIGN_OR_RETURN(auto objects, IndexCollection(file, id.collection));
  return Find(objects, id, file);
}

Result<std::span<const std::byte>> GlobalHeapReader::Object(GlobalHeapId id) {
  auto it = index_.find(id.collection);
  if (it == index_.end()) {
    KERCHUNK_ASSIGN_OR_RETURN(auto objects, IndexCollection(file_, id.collection));
    it = index_.emplace(id.collection, std::move(objects)).first;
  }
  return Find(it->second, id, file_);
}

Result<std::pair<uint32_t, GlobalHeapId>> ReadVlenElement(const File& file, ByteReader& r) {
  KERCHUNK_ASSIGN_OR_RETURN(uint32_t length, r.U32("sequence length"));
  GlobalHeapId id;
  KERCHUNK_ASSIGN_OR_RETURN(id.collection, file.ReadAddress(r, "global heap collection address"));
  KERCHUNK_ASSIGN_OR_RETURN(id.index, r.U32("global heap object index"));
  return std::make_pair(length, id);
}

}  // namespace kerchunk::hdf5
