// Data Layout message versions 1..4; see the specification link in data_layout.h.
#include "kerchunk/hdf5/data_layout.h"

namespace kerchunk::hdf5 {
namespace {

constexpr unsigned kMaxRank = 32;  // H5S_MAX_RANK

// Fills chunk_dims and element_size from the message's dimension list, whose last entry is the
// element size (every version stores rank + 1 sizes for chunked data).
Status SetChunkDims(DataLayout& layout, const ByteReader& r, const std::vector<uint64_t>& sizes) {
  if (sizes.size() < 2 || sizes.size() > kMaxRank + 1) {
    return r.Error(fmt::format("chunked layout: expected 2..{} dimensions (rank + 1), got {}",
                               kMaxRank + 1, sizes.size()));
  }
  for (uint64_t d : sizes) {
    if (d == 0 || d > UINT32_MAX) {
      return r.Error(fmt::format("chunked layout: expected chunk sizes in 1..2^32-1, got {}", d));
    }
  }
  layout.chunk_dims.assign(sizes.begin(), sizes.end() - 1);
  layout.element_size = static_cast<uint32_t>(sizes.back());
  return OkStatus();
}

Result<std::vector<uint64_t>> ReadSizes(ByteReader& r, unsigned count, unsigned width) {
  std::vector<uint64_t> sizes(count);
  for (auto& s : sizes) {
    KERCHUNK_ASSIGN_OR_RETURN(s, r.UVar(width, "dimension size"));
  }
  return sizes;
}

Status CheckClass(const ByteReader& r, uint8_t value, uint8_t max) {
  if (value > max) {
    return r.Error(fmt::format("expected layout class 0..{}, got {}", max, value));
  }
  return OkStatus();
}

// Versions 1 and 2: dimensionality, class, 5 reserved bytes, address, 4-byte sizes.
Status DecodeV1V2(const File& file, ByteReader& r, DataLayout& layout) {
  KERCHUNK_ASSIGN_OR_RETURN(uint8_t ndims, r.U8("dimensionality"));
  KERCHUNK_ASSIGN_OR_RETURN(uint8_t cls, r.U8("layout class"));
  KERCHUNK_RETURN_IF_ERROR(CheckClass(r, cls, 2));
  layout.layout_class = static_cast<LayoutClass>(cls);
  KERCHUNK_RETURN_IF_ERROR(r.Skip(5));
  uint64_t address = kUndefinedAddress;
  if (layout.layout_class != LayoutClass::kCompact) {
    KERCHUNK_ASSIGN_OR_RETURN(address, file.ReadAddress(r, "data address"));
  }
  KERCHUNK_ASSIGN_OR_RETURN(auto sizes, ReadSizes(r, ndims, 4));
  switch (layout.layout_class) {
    case LayoutClass::kChunked:
      layout.index_address = address;
      return SetChunkDims(layout, r, sizes);
    case LayoutClass::kContiguous:
      layout.data_address = address;
      return OkStatus();
    default: {
      KERCHUNK_ASSIGN_OR_RETURN(uint32_t size, r.U32("compact data size"));
      layout.compact_offset = r.address();
      layout.compact_size = size;
      return r.Skip(size);
    }
  }
}

// Version 4 index-specific fields, between the index type and the index address.
Status DecodeIndexParams(const File& file, ByteReader& r, DataLayout& layout) {
  switch (layout.index_type) {
    case ChunkIndexType::kSingleChunk: {
      if (layout.flags & 0x02) {
        layout.single_chunk.filtered = true;
        KERCHUNK_ASSIGN_OR_RETURN(layout.single_chunk.filtered_size,
                                  file.ReadLength(r, "filtered chunk size"));
        KERCHUNK_ASSIGN_OR_RETURN(layout.single_chunk.filter_mask, r.U32("filter mask"));
      }
      return OkStatus();
    }
    case ChunkIndexType::kImplicit:
      return OkStatus();
    case ChunkIndexType::kFixedArray: {
      KERCHUNK_ASSIGN_OR_RETURN(layout.fixed_array.max_page_bits, r.U8("page bits"));
      return OkStatus();
    }
    case ChunkIndexType::kExtensibleArray: {
      auto& ea = layout.extensible_array;
      KERCHUNK_ASSIGN_OR_RETURN(ea.max_bits, r.U8("max bits"));
      KERCHUNK_ASSIGN_OR_RETURN(ea.index_elements, r.U8("index elements"));
      KERCHUNK_ASSIGN_OR_RETURN(ea.min_pointers, r.U8("min pointers"));
      KERCHUNK_ASSIGN_OR_RETURN(ea.min_elements, r.U8("min elements"));
      KERCHUNK_ASSIGN_OR_RETURN(ea.max_page_bits, r.U8("page bits"));
      return OkStatus();
    }
    case ChunkIndexType::kBTreeV2: {
      KERCHUNK_ASSIGN_OR_RETURN(layout.btree_v2.node_size, r.U32("node size"));
      KERCHUNK_ASSIGN_OR_RETURN(layout.btree_v2.split_percent, r.U8("split percent"));
      KERCHUNK_ASSIGN_OR_RETURN(layout.btree_v2.merge_percent, r.U8("merge percent"));
      return OkStatus();
    }
    case ChunkIndexType::kBTreeV1:
      break;
  }
  return r.Error("version 4 layout names a version 1 B-tree index, which it cannot");
}

Status DecodeChunkedV3V4(const File& file, ByteReader& r, DataLayout& layout) {
  if (layout.version == 3) {
    KERCHUNK_ASSIGN_OR_RETURN(uint8_t ndims, r.U8("dimensionality"));
    KERCHUNK_ASSIGN_OR_RETURN(layout.index_address, file.ReadAddress(r, "B-tree address"));
    KERCHUNK_ASSIGN_OR_RETURN(auto sizes, ReadSizes(r, ndims, 4));
    return SetChunkDims(layout, r, sizes);
  }
  KERCHUNK_ASSIGN_OR_RETURN(layout.flags, r.U8("flags"));
  KERCHUNK_ASSIGN_OR_RETURN(uint8_t ndims, r.U8("dimensionality"));
  KERCHUNK_ASSIGN_OR_RETURN(uint8_t width, r.U8("dimension size width"));
  if (width < 1 || width > 8) {
    return r.Error(fmt::format("expected a dimension size width of 1..8, got {}", width));
  }
  KERCHUNK_ASSIGN_OR_RETURN(auto sizes, ReadSizes(r, ndims, width));
  KERCHUNK_RETURN_IF_ERROR(SetChunkDims(layout, r, sizes));
  KERCHUNK_ASSIGN_OR_RETURN(uint8_t type, r.U8("chunk indexing type"));
  if (type < 1 || type > 5) {
    return r.Error(fmt::format("expected chunk indexing type 1..5, got {}", type));
  }
  layout.index_type = static_cast<ChunkIndexType>(type);
  KERCHUNK_RETURN_IF_ERROR(DecodeIndexParams(file, r, layout));
  KERCHUNK_ASSIGN_OR_RETURN(layout.index_address, file.ReadAddress(r, "index address"));
  return OkStatus();
}

Status DecodeV3V4(const File& file, ByteReader& r, DataLayout& layout) {
  KERCHUNK_ASSIGN_OR_RETURN(uint8_t cls, r.U8("layout class"));
  KERCHUNK_RETURN_IF_ERROR(CheckClass(r, cls, layout.version == 4 ? 3 : 2));
  layout.layout_class = static_cast<LayoutClass>(cls);
  switch (layout.layout_class) {
    case LayoutClass::kCompact: {
      KERCHUNK_ASSIGN_OR_RETURN(uint16_t size, r.U16("compact data size"));
      layout.compact_offset = r.address();
      layout.compact_size = size;
      return r.Skip(size);
    }
    case LayoutClass::kContiguous: {
      KERCHUNK_ASSIGN_OR_RETURN(layout.data_address, file.ReadAddress(r, "data address"));
      KERCHUNK_ASSIGN_OR_RETURN(layout.data_size, file.ReadLength(r, "data size"));
      return OkStatus();
    }
    case LayoutClass::kChunked:
      return DecodeChunkedV3V4(file, r, layout);
    case LayoutClass::kVirtual:
      // Global heap address and index of the mapping list; nothing the walker needs.
      return OkStatus();
  }
  return OkStatus();
}

}  // namespace

std::string_view ChunkIndexTypeName(ChunkIndexType type) {
  switch (type) {
    case ChunkIndexType::kBTreeV1:
      return "version 1 B-tree";
    case ChunkIndexType::kSingleChunk:
      return "single chunk";
    case ChunkIndexType::kImplicit:
      return "implicit";
    case ChunkIndexType::kFixedArray:
      return "fixed array";
    case ChunkIndexType::kExtensibleArray:
      return "extensible array";
    case ChunkIndexType::kBTreeV2:
      return "version 2 B-tree";
  }
  return "unknown";
}

Result<uint64_t> DataLayout::ChunkBytes() const {
  uint64_t bytes = element_size;
  for (uint64_t d : chunk_dims) {
    auto next = CheckedMul(bytes, d);
    if (!next) return DataLossError("chunk of {} dimensions: byte size overflows", rank());
    bytes = *next;
  }
  return bytes;
}

Result<DataLayout> DecodeDataLayout(const File& file, const HeaderMessage& message) {
  ByteReader r = message.Reader("data layout message");
  DataLayout layout;
  KERCHUNK_ASSIGN_OR_RETURN(layout.version, r.U8("version"));
  if (message.flags & kMessageFlagShared) {
    return UnsupportedError(
        "data layout message at address {}: shared layout messages are not "
        "supported",
        message.file_offset);
  }
  switch (layout.version) {
    case 1:
    case 2:
      KERCHUNK_RETURN_IF_ERROR(DecodeV1V2(file, r, layout));
      break;
    case 3:
    case 4:
      KERCHUNK_RETURN_IF_ERROR(DecodeV3V4(file, r, layout));
      break;
    default:
      return UnsupportedError("data layout message at address {}: expected version 1..4, got {}",
                              message.file_offset, layout.version);
  }
  return layout;
}

Result<DataLayout> ReadDataLayout(const File& file, uint64_t object_header_address) {
  auto message = FindHeaderMessage(file, object_header_address, kDataLayoutMessage);
  if (!message.ok()) return std::move(message).status();
  return DecodeDataLayout(file, *message);
}

}  // namespace kerchunk::hdf5
