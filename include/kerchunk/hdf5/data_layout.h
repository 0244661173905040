// The Data Layout message (type 0x0008), versions 1..4: storage class, chunk shape and, for
// chunked datasets, which chunk index holds the chunk addresses and where.
// Format: HDF5 File Format Specification, "IV.A.2.i. The Data Layout Message",
// https://docs.hdfgroup.org/hdf5/develop/_f_m_t3.html#subsubsec_fmt3_dataobject_hdr_msg_layout
// The single-chunk and implicit indexes are described there, as part of version 4.
#pragma once

#include <cstdint>
#include <string_view>
#include <vector>

#include "kerchunk/hdf5/file.h"
#include "kerchunk/hdf5/object_header.h"
#include "kerchunk/util/status.h"

namespace kerchunk::hdf5 {

/// The storage class of a dataset's raw data.
enum class LayoutClass : uint8_t { kCompact = 0, kContiguous = 1, kChunked = 2, kVirtual = 3 };

/// How a chunked dataset indexes its chunks. Values 1..5 are the version 4 "chunk indexing
/// type" numbers; versions 1..3 always use a version 1 B-tree (kBTreeV1, libhdf5's value 0).
enum class ChunkIndexType : uint8_t {
  kBTreeV1 = 0,
  kSingleChunk = 1,
  kImplicit = 2,
  kFixedArray = 3,
  kExtensibleArray = 4,
  kBTreeV2 = 5,
};

/// Lower-case name for messages, e.g. "fixed array".
std::string_view ChunkIndexTypeName(ChunkIndexType type);

/// Version 4, single chunk index: the filtered size and mask of the one chunk when the dataset
/// has filters (layout flag bit 1); otherwise the chunk is stored unfiltered at full size.
struct SingleChunkParams {
  bool filtered = false;
  uint64_t filtered_size = 0;
  uint32_t filter_mask = 0;
};

/// Version 4, fixed array index creation parameter.
struct FixedArrayParams {
  uint8_t max_page_bits = 0;  ///< log2 of the most entries in one data block page
};

/// Version 4, extensible array index creation parameters (in message order).
struct ExtensibleArrayParams {
  uint8_t max_bits = 0;        ///< log2 of the most elements the array can hold
  uint8_t index_elements = 0;  ///< elements stored in the index block itself
  uint8_t min_pointers = 0;    ///< min data block pointers in a super block
  uint8_t min_elements = 0;    ///< min elements in a data block
  uint8_t max_page_bits = 0;   ///< log2 of the most elements in a data block page
};

/// Version 4, version 2 B-tree index creation parameters.
struct BTreeV2Params {
  uint32_t node_size = 0;
  uint8_t split_percent = 0;
  uint8_t merge_percent = 0;
};

/// A decoded Data Layout message. Only the fields of its class (and index type) are meaningful.
struct DataLayout {
  uint8_t version = 0;
  LayoutClass layout_class = LayoutClass::kContiguous;

  // kContiguous: data address (relative; kUndefinedAddress when not allocated) and size
  // (versions 3/4 only; versions 1/2 do not store it and leave 0).
  uint64_t data_address = kUndefinedAddress;
  uint64_t data_size = 0;
  // kCompact: file offset and size of the data held in the message.
  uint64_t compact_offset = 0;
  uint64_t compact_size = 0;

  // kChunked. The chunk extent per dataset dimension: the message's trailing "element size"
  // dimension is stripped into element_size.
  std::vector<uint64_t> chunk_dims;
  uint32_t element_size = 0;
  /// Version 4 layout flags: bit 0 "don't filter partial edge chunks", bit 1 "single chunk
  /// index with filters".
  uint8_t flags = 0;
  ChunkIndexType index_type = ChunkIndexType::kBTreeV1;
  /// Address of the index (B-tree root, array header), of the chunk itself (single chunk) or of
  /// the first chunk (implicit); kUndefinedAddress when no storage is allocated yet.
  uint64_t index_address = kUndefinedAddress;
  SingleChunkParams single_chunk;
  FixedArrayParams fixed_array;
  ExtensibleArrayParams extensible_array;
  BTreeV2Params btree_v2;

  size_t rank() const { return chunk_dims.size(); }
  /// Bytes in one unfiltered chunk: product of chunk_dims times element_size. DataLoss when it
  /// overflows 64 bits.
  Result<uint64_t> ChunkBytes() const;
};

/// Decodes the data of a Data Layout message. Checks field ranges (rank 1..32 for chunked data,
/// non-zero chunk extents of at most 32 bits, known class and index type); does not look at the
/// index itself. DataLoss for malformed bytes, Unsupported for an unknown version.
Result<DataLayout> DecodeDataLayout(const File& file, const HeaderMessage& message);

/// Finds and decodes the Data Layout message of the object header at HDF5 address
/// `object_header_address` (H5Oget_info's `addr`, which is relative to the base address).
Result<DataLayout> ReadDataLayout(const File& file, uint64_t object_header_address);

}  // namespace kerchunk::hdf5
