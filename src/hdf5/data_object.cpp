// Data objects: messages of one header, group links, attributes; see data_object.h.
#include "kerchunk/hdf5/data_object.h"

#include <algorithm>

#include "kerchunk/hdf5/btree_v2.h"
#include "kerchunk/hdf5/fractal_heap.h"
#include "kerchunk/hdf5/shared_message.h"
#include "kerchunk/hdf5/symbol_table.h"

namespace kerchunk::hdf5 {
namespace {

enum : uint16_t {
  kDataspace = 0x0001,
  kLinkInfo = 0x0002,
  kDatatype = 0x0003,
  kFillValueOld = 0x0004,
  kFillValue = 0x0005,
  kLink = 0x0006,
  kLayout = 0x0008,
  kFilterPipeline = 0x000B,
  kAttribute = 0x000C,
  kSymbolTable = 0x0011,
  kAttributeInfo = 0x0015,
};

bool Shareable(uint16_t type) {
  return type == kDataspace || type == kDatatype || type == kFillValue || type == kFillValueOld ||
         type == kFilterPipeline || type == kAttribute;
}

// The dense links of a group: the type 5 name index gives heap IDs of link messages.
Status ReadDenseLinks(const File& file, const LinkInfo& info, std::vector<Link>& out) {
  if (info.heap_address == kUndefinedAddress) return OkStatus();
  KERCHUNK_ASSIGN_OR_RETURN(FractalHeap heap, FractalHeap::Open(file, info.heap_address));
  const auto* begin = file.bytes().data();
  return internal::ForEachBTreeV2Record(
      file, info.name_index_address, 5,
      [&](std::span<const std::byte> record, uint64_t at) -> Status {
        if (record.size() < 5) {
          return DataLossError("link name index record at address {}: {} bytes", at, record.size());
        }
        KERCHUNK_ASSIGN_OR_RETURN(std::span<const std::byte> data, heap.Object(record.subspan(4)));
        ByteReader r(data, static_cast<uint64_t>(data.data() - begin), "link message");
        KERCHUNK_ASSIGN_OR_RETURN(Link link, DecodeLink(file, r));
        out.push_back(std::move(link));
        return OkStatus();
      });
}

}  // namespace

ObjectKind DataObject::kind() const {
  if (symbol_table || link_info) return ObjectKind::kGroup;
  if (datatype && dataspace) return ObjectKind::kDataset;
  if (datatype) return ObjectKind::kNamedDatatype;
  return ObjectKind::kUnknown;
}

Result<DataObject> ReadDataObject(const File& file, uint64_t address) {
  DataObject o;
  o.address = address;
  KERCHUNK_RETURN_IF_ERROR(
      ForEachHeaderMessage(file, address, [&](const HeaderMessage& message) -> Result<bool> {
        HeaderMessage m = message;
        if ((m.flags & kMessageFlagShared) && Shareable(m.type)) {
          KERCHUNK_ASSIGN_OR_RETURN(m, ResolveSharedMessage(file, message.type, message));
          m.type = message.type;
        }
        switch (m.type) {
          case kDataspace:
            if (!o.dataspace) o.dataspace = m;
            break;
          case kLinkInfo:
            if (!o.link_info) o.link_info = m;
            break;
          case kDatatype:
            if (!o.datatype) o.datatype = m;
            break;
          case kFillValueOld:
            if (!o.fill_value_old) o.fill_value_old = m;
            break;
          case kFillValue:
            if (!o.fill_value) o.fill_value = m;
            break;
          case kLink:
            o.links.push_back(m);
            break;
          case kLayout:
            if (!o.layout) o.layout = m;
            break;
          case kFilterPipeline:
            if (!o.filter_pipeline) o.filter_pipeline = m;
            break;
          case kAttribute:
            o.attributes.push_back(m);
            break;
          case kSymbolTable:
            if (!o.symbol_table) o.symbol_table = m;
            break;
          case kAttributeInfo:
            if (!o.attribute_info) o.attribute_info = m;
            break;
          default:
            break;
        }
        return true;
      }));
  return o;
}

Result<std::vector<Link>> ListGroupLinks(const File& file, const DataObject& group) {
  std::vector<Link> links;
  if (group.symbol_table) {
    KERCHUNK_ASSIGN_OR_RETURN(
        links, ReadSymbolTableLinks(file, group.symbol_table->Reader("symbol table message")));
  } else {
    for (const HeaderMessage& m : group.links) {
      KERCHUNK_ASSIGN_OR_RETURN(Link link, DecodeLink(file, m.Reader("link message")));
      links.push_back(std::move(link));
    }
    if (group.link_info) {
      KERCHUNK_ASSIGN_OR_RETURN(LinkInfo info,
                                DecodeLinkInfo(file, group.link_info->Reader("link info message")));
      KERCHUNK_RETURN_IF_ERROR(ReadDenseLinks(file, info, links));
    }
  }
  std::sort(links.begin(), links.end(),
            [](const Link& a, const Link& b) { return a.name < b.name; });
  return links;
}

Result<std::vector<Attribute>> ListAttributes(const File& file, const DataObject& object) {
  std::vector<HeaderMessage> messages = object.attributes;
  if (object.attribute_info) {
    KERCHUNK_ASSIGN_OR_RETURN(
        std::vector<HeaderMessage> dense,
        ReadDenseAttributeMessages(file, object.attribute_info->Reader("attribute info message")));
    messages.insert(messages.end(), dense.begin(), dense.end());
  }
  std::vector<Attribute> decoded;
  decoded.reserve(messages.size());
  for (const HeaderMessage& m : messages) {
    KERCHUNK_ASSIGN_OR_RETURN(Attribute a, DecodeAttribute(file, m));
    decoded.push_back(std::move(a));
  }
  // By name; the order is sorted as indices, since an Attribute (its type and space) is large to
  // move around.
  std::vector<uint32_t> order(decoded.size());
  for (uint32_t i = 0; i < order.size(); ++i) order[i] = i;
  std::sort(order.begin(), order.end(),
            [&](uint32_t a, uint32_t b) { return decoded[a].name < decoded[b].name; });
  std::vector<Attribute> out;
  out.reserve(decoded.size());
  for (uint32_t i : order) out.push_back(std::move(decoded[i]));
  return out;
}

}  // namespace kerchunk::hdf5
