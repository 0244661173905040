// Link and Link Info messages; see the specification link in link.h.
//
// Link: version 1, flags (bits 0-1 size of the name length field, bit 2 creation order present,
// bit 3 link type present, bit 4 name character set present), [type], [creation order (8)],
// [charset], name length, name (no NUL), then the target: an address for hard links, a length
// and bytes for the others. Link Info: version 0, flags (bit 0 creation order tracked, bit 1
// indexed), [max creation index (8)], heap address, name index address, [order index].
#include "kerchunk/hdf5/link.h"

#include <fmt/format.h>

namespace kerchunk::hdf5 {

Result<Link> DecodeLink(const File& file, ByteReader r) {
  KERCHUNK_ASSIGN_OR_RETURN(uint8_t version, r.U8("version"));
  if (version != 1) return r.Error(fmt::format("expected version 1, got {}", version));
  KERCHUNK_ASSIGN_OR_RETURN(uint8_t flags, r.U8("flags"));
  Link link;
  if (flags & 0x08) {
    KERCHUNK_ASSIGN_OR_RETURN(uint8_t type, r.U8("link type"));
    link.type = static_cast<LinkType>(type);
  }
  if (flags & 0x04) KERCHUNK_RETURN_IF_ERROR(r.Skip(8));  // creation order
  if (flags & 0x10) KERCHUNK_RETURN_IF_ERROR(r.Skip(1));  // character set
  KERCHUNK_ASSIGN_OR_RETURN(uint64_t length, r.UVar(1u << (flags & 0x03), "name length"));
  if (length == 0) return r.Error("link with an empty name");
  KERCHUNK_ASSIGN_OR_RETURN(std::string_view name, r.Chars(length, "link name"));
  link.name = std::string(name);
  if (link.type == LinkType::kHard) {
    KERCHUNK_ASSIGN_OR_RETURN(link.address, file.ReadAddress(r, "object header address"));
  }
  return link;
}

Result<LinkInfo> DecodeLinkInfo(const File& file, ByteReader r) {
  KERCHUNK_ASSIGN_OR_RETURN(uint8_t version, r.U8("version"));
  if (version != 0) return r.Error(fmt::format("expected version 0, got {}", version));
  KERCHUNK_ASSIGN_OR_RETURN(uint8_t flags, r.U8("flags"));
  if (flags & 0x01) KERCHUNK_RETURN_IF_ERROR(r.Skip(8));  // maximum creation index
  LinkInfo info;
  KERCHUNK_ASSIGN_OR_RETURN(info.heap_address, file.ReadAddress(r, "fractal heap address"));
  KERCHUNK_ASSIGN_OR_RETURN(info.name_index_address,
                            file.ReadAddress(r, "name index v2 B-tree address"));
  return info;
}

}  // namespace kerchunk::hdf5
