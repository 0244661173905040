// Attribute and Attribute Info messages; see the specification link in attribute.h.
//
// Attribute: version, reserved (v1) or flags (v2, v3: bit 0 datatype shared, bit 1 dataspace
// shared), name size (with its NUL), datatype size, dataspace size, (v3) name encoding, then
// the name, datatype and dataspace, each padded to a multiple of 8 bytes in version 1 only, and
// the data. Attribute Info: version 0, flags (bit 0 creation order tracked, bit 1 indexed),
// [max creation index (2)], fractal heap address, name index address, [order index address].
// A type 8 B-tree record is the 8-byte heap ID, message flags (1), creation order (4), hash (4).
#include "kerchunk/hdf5/attribute.h"

#include <fmt/format.h>

#include "kerchunk/hdf5/btree_v2.h"
#include "kerchunk/hdf5/fractal_heap.h"
#include "kerchunk/hdf5/shared_message.h"
#include "kerchunk/util/checked_math.h"

namespace kerchunk::hdf5 {
namespace {

constexpr uint16_t kDatatypeMessage = 0x0003;
constexpr uint16_t kDataspaceMessage = 0x0001;
constexpr uint16_t kAttributeMessage = 0x000C;

uint64_t Pad8(uint64_t n) { return (n + 7) / 8 * 8; }

// The reader of a datatype or dataspace field, following a shared-message pointer.
Result<ByteReader> FieldReader(const File& file, ByteReader field, bool shared, uint16_t type) {
  if (!shared) return field;
  HeaderMessage pointer;
  pointer.type = type;
  pointer.flags = kMessageFlagShared;
  pointer.file_offset = field.address();
  pointer.data = field.bytes();
  KERCHUNK_ASSIGN_OR_RETURN(HeaderMessage target, ResolveSharedMessage(file, type, pointer));
  return target.Reader(type == kDatatypeMessage ? "datatype message" : "dataspace message");
}

}  // namespace

Result<Attribute> DecodeAttribute(const File& file, const HeaderMessage& message) {
  ByteReader r = message.Reader("attribute message");
  KERCHUNK_ASSIGN_OR_RETURN(uint8_t version, r.U8("version"));
  if (version < 1 || version > 3) {
    return r.Error(fmt::format("expected version 1..3, got {}", version));
  }
  KERCHUNK_ASSIGN_OR_RETURN(uint8_t flags, r.U8("flags"));
  if (version == 1) flags = 0;
  KERCHUNK_ASSIGN_OR_RETURN(uint16_t name_size, r.U16("name size"));
  KERCHUNK_ASSIGN_OR_RETURN(uint16_t type_size, r.U16("datatype size"));
  KERCHUNK_ASSIGN_OR_RETURN(uint16_t space_size, r.U16("dataspace size"));
  if (version == 3) KERCHUNK_RETURN_IF_ERROR(r.Skip(1));  // name character set
  auto padded = [&](uint64_t n) { return version == 1 ? Pad8(n) : n; };
  Attribute a;
  KERCHUNK_ASSIGN_OR_RETURN(std::string_view name, r.Chars(padded(name_size), "name"));
  a.name = std::string(name.substr(0, std::min<size_t>(name.find('\0'), name_size)));
  KERCHUNK_ASSIGN_OR_RETURN(ByteReader type_field, r.Sub(type_size, "attribute datatype"));
  KERCHUNK_RETURN_IF_ERROR(r.Skip(padded(type_size) - type_size));
  KERCHUNK_ASSIGN_OR_RETURN(ByteReader space_field, r.Sub(space_size, "attribute dataspace"));
  KERCHUNK_RETURN_IF_ERROR(r.Skip(padded(space_size) - space_size));
  KERCHUNK_ASSIGN_OR_RETURN(ByteReader type_reader,
                            FieldReader(file, type_field, flags & 0x01, kDatatypeMessage));
  KERCHUNK_ASSIGN_OR_RETURN(a.type, DecodeDatatype(type_reader));
  KERCHUNK_ASSIGN_OR_RETURN(ByteReader space_reader,
                            FieldReader(file, space_field, flags & 0x02, kDataspaceMessage));
  KERCHUNK_ASSIGN_OR_RETURN(a.space, DecodeDataspace(file, space_reader));
  KERCHUNK_ASSIGN_OR_RETURN(uint64_t count, a.space.ElementCount());
  const auto bytes = CheckedMul(count, a.type.size);
  if (!bytes) return r.Error("attribute data size overflows 64 bits");
  a.data_offset = r.address();
  KERCHUNK_ASSIGN_OR_RETURN(a.data, r.Bytes(*bytes, "attribute data"));
  return a;
}

Result<std::vector<HeaderMessage>> ReadDenseAttributeMessages(const File& file,
                                                              ByteReader message) {
  KERCHUNK_ASSIGN_OR_RETURN(uint8_t version, message.U8("version"));
  if (version != 0) return message.Error(fmt::format("expected version 0, got {}", version));
  KERCHUNK_ASSIGN_OR_RETURN(uint8_t flags, message.U8("flags"));
  if (flags & 0x01) KERCHUNK_RETURN_IF_ERROR(message.Skip(2));  // maximum creation index
  KERCHUNK_ASSIGN_OR_RETURN(uint64_t heap_address,
                            file.ReadAddress(message, "fractal heap address"));
  KERCHUNK_ASSIGN_OR_RETURN(uint64_t index, file.ReadAddress(message, "name index address"));
  std::vector<HeaderMessage> out;
  if (heap_address == kUndefinedAddress) return out;
  KERCHUNK_ASSIGN_OR_RETURN(FractalHeap heap, FractalHeap::Open(file, heap_address));
  const auto* begin = file.bytes().data();
  KERCHUNK_RETURN_IF_ERROR(internal::ForEachBTreeV2Record(
      file, index, 8, [&](std::span<const std::byte> record, uint64_t at) -> Status {
        if (record.size() < 9) {
          return DataLossError("attribute name index record at address {}: {} bytes", at,
                               record.size());
        }
        const auto message_flags = static_cast<uint8_t>(record[8]);
        if (message_flags & kMessageFlagShared) {
          // A shared attribute: the ID is one of the SOHM heap, not of this object's heap.
          KERCHUNK_ASSIGN_OR_RETURN(
              HeaderMessage m, ReadSharedHeapMessage(file, kAttributeMessage, record.first(8)));
          out.push_back(m);
          return OkStatus();
        }
        KERCHUNK_ASSIGN_OR_RETURN(std::span<const std::byte> data, heap.Object(record.first(8)));
        HeaderMessage m;
        m.type = kAttributeMessage;
        m.data = data;
        m.file_offset = static_cast<uint64_t>(data.data() - begin);
        out.push_back(m);
        return OkStatus();
      }));
  return out;
}

}  // namespace kerchunk::hdf5
