// Metadata cache image message and block; see the format notes in cache_image.h.
//
// Block: "MDCI", version 0, flags (bit 0: adaptive resize status follows, which no libhdf5
// writes), data length (L), entry count (4), the entries, checksum (4). Entry: type id (1),
// flags (1), ring (1), age (1), flush dependency child count (2), dirty child count (2), parent
// count (2), LRU rank (4), address (O), size (L), the parents' addresses (O each), the image
// (size bytes).
#include "kerchunk/hdf5/cache_image.h"

#include <fmt/format.h>

#include <algorithm>
#include <cstring>

#include "hdf5/checksum.h"
#include "kerchunk/hdf5/object_header.h"

namespace kerchunk::hdf5 {
namespace {

constexpr std::string_view kBlock = "metadata cache image block";
constexpr uint64_t kChecksumSize = 4;

uint64_t BlockHeaderSize(const File& file) { return 4 + 1 + 1 + file.length_size() + 4; }

// Everything before the stored checksum must hash to it.
Status CheckChecksum(const ByteReader& block) {
  const auto bytes = block.bytes();
  const auto covered = bytes.first(bytes.size() - kChecksumSize);
  uint32_t stored = 0;
  for (uint64_t i = 0; i < kChecksumSize; ++i) {
    stored |= uint32_t{std::to_integer<uint8_t>(bytes[covered.size() + i])} << (8 * i);
  }
  const uint32_t computed = JenkinsLookup3(covered);
  if (computed == stored) return OkStatus();
  return block.Error(
      fmt::format("checksum mismatch: stored {:#010x}, computed {:#010x}", stored, computed));
}

// The header up to the entries; returns the entry count.
Result<uint32_t> ReadBlockHeader(const File& file, ByteReader& r, uint64_t length) {
  KERCHUNK_RETURN_IF_ERROR(r.ExpectSignature("MDCI"));
  KERCHUNK_ASSIGN_OR_RETURN(uint8_t version, r.U8("version"));
  if (version != 0) {
    return UnsupportedError("{} at address {}: expected version 0, got {}", kBlock, r.address() - 1,
                            version);
  }
  KERCHUNK_ASSIGN_OR_RETURN(uint8_t flags, r.U8("flags"));
  if (flags != 0) {
    return UnsupportedError("{} at address {}: flags {:#04x}: saved resize status is not read",
                            kBlock, r.address() - 1, flags);
  }
  KERCHUNK_ASSIGN_OR_RETURN(uint64_t data_length, file.ReadLength(r, "data length"));
  if (data_length != length) {
    return r.Error(
        fmt::format("data length: expected the message's {}, got {}", length, data_length));
  }
  KERCHUNK_ASSIGN_OR_RETURN(uint32_t count, r.U32("entry count"));
  if (count == 0) return r.Error("entry count: expected at least 1, got 0");
  return count;
}

Result<CacheImageEntry> ReadEntry(const File& file, ByteReader& r, uint32_t index) {
  const uint64_t at = r.address();
  CacheImageEntry entry;
  KERCHUNK_ASSIGN_OR_RETURN(entry.type, r.U8("entry type"));
  KERCHUNK_RETURN_IF_ERROR(r.Skip(3));  // flags, ring, age: cache bookkeeping
  KERCHUNK_ASSIGN_OR_RETURN(uint16_t children, r.U16("flush dependency child count"));
  KERCHUNK_ASSIGN_OR_RETURN(uint16_t dirty_children, r.U16("dirty child count"));
  if (dirty_children > children) {
    return r.Error(fmt::format("entry {} at {}: {} dirty flush dependency children of {}", index,
                               at, dirty_children, children));
  }
  KERCHUNK_ASSIGN_OR_RETURN(uint16_t parents, r.U16("flush dependency parent count"));
  KERCHUNK_RETURN_IF_ERROR(r.Skip(4));  // LRU rank
  KERCHUNK_ASSIGN_OR_RETURN(entry.address, file.ReadAddress(r, "entry address"));
  if (entry.address == kUndefinedAddress) {
    return r.Error(fmt::format("entry {} at {}: the address is undefined", index, at));
  }
  KERCHUNK_ASSIGN_OR_RETURN(uint64_t size, file.ReadLength(r, "entry size"));
  if (size == 0) return r.Error(fmt::format("entry {} at {}: size 0", index, at));
  // Flush dependencies order libhdf5's writes; a reader has no use for them.
  KERCHUNK_RETURN_IF_ERROR(r.Skip(uint64_t{parents} * file.offset_size()));
  KERCHUNK_ASSIGN_OR_RETURN(entry.image, r.Bytes(size, "entry image"));
  return entry;
}

// A range of the file the overlay writes (an entry) or must leave alone (the block).
struct Extent {
  uint64_t offset = 0;
  uint64_t size = 0;
  std::span<const std::byte> image;  // empty for the block
};

std::string ExtentName(const Extent& e) {
  return e.image.empty() ? std::string(kBlock) : fmt::format("the entry at address {}", e.offset);
}

// Sorts `extents` by offset and fails on the first two that overlap.
Status SortAndCheckDisjoint(std::vector<Extent>& extents) {
  std::stable_sort(extents.begin(), extents.end(),
                   [](const Extent& a, const Extent& b) { return a.offset < b.offset; });
  for (size_t i = 1; i < extents.size(); ++i) {
    const Extent& before = extents[i - 1];
    if (before.offset + before.size > extents[i].offset) {
      return DataLossError("metadata cache image: {} ({} bytes) overlaps {}", ExtentName(before),
                           before.size, ExtentName(extents[i]));
    }
  }
  return OkStatus();
}

}  // namespace

Result<CacheImageLocation> DecodeCacheImageMessage(const File& file, ByteReader message) {
  KERCHUNK_ASSIGN_OR_RETURN(uint8_t version, message.U8("version"));
  if (version != 0) {
    return UnsupportedError(
        "metadata cache image message at address {}: expected version 0, got {}",
        message.address() - 1, version);
  }
  CacheImageLocation where;
  KERCHUNK_ASSIGN_OR_RETURN(where.address, file.ReadAddress(message, "block address"));
  KERCHUNK_ASSIGN_OR_RETURN(where.length, file.ReadLength(message, "block length"));
  if (where.address == kUndefinedAddress) {
    return message.Error("the block address is undefined");
  }
  return where;
}

Result<std::vector<CacheImageEntry>> ReadCacheImageBlock(const File& file,
                                                         const CacheImageLocation& where) {
  KERCHUNK_ASSIGN_OR_RETURN(ByteReader block, file.ReaderAt(where.address, where.length, kBlock));
  if (where.length < BlockHeaderSize(file) + kChecksumSize) {
    return block.Error(
        fmt::format("{} bytes cannot hold the header and the checksum", where.length));
  }
  KERCHUNK_RETURN_IF_ERROR(CheckChecksum(block));
  KERCHUNK_ASSIGN_OR_RETURN(ByteReader r, block.Sub(where.length - kChecksumSize, kBlock));
  KERCHUNK_ASSIGN_OR_RETURN(uint32_t count, ReadBlockHeader(file, r, where.length));
  std::vector<CacheImageEntry> entries;
  // Each entry takes more than 16 bytes: a hostile count cannot reserve more than the block.
  entries.reserve(std::min<uint64_t>(count, r.remaining() / 16));
  for (uint32_t i = 0; i < count; ++i) {
    KERCHUNK_ASSIGN_OR_RETURN(CacheImageEntry entry, ReadEntry(file, r, i));
    entries.push_back(entry);
  }
  KERCHUNK_RETURN_IF_ERROR(r.ExpectEnd());
  return entries;
}

Result<std::vector<std::byte>> OverlayCacheImage(const File& file, const CacheImageLocation& where,
                                                 std::span<const CacheImageEntry> entries) {
  const uint64_t file_size = file.bytes().size();
  std::vector<Extent> extents;
  KERCHUNK_ASSIGN_OR_RETURN(uint64_t block_offset, file.ToFileOffset(where.address, kBlock));
  extents.push_back({block_offset, where.length, {}});
  for (const CacheImageEntry& entry : entries) {
    KERCHUNK_ASSIGN_OR_RETURN(uint64_t offset,
                              file.ToFileOffset(entry.address, "metadata cache image entry"));
    if (!RangeWithin(offset, entry.image.size(), file_size)) {
      return DataLossError(
          "metadata cache image entry at address {}: {} bytes from there reach past the end of "
          "the file ({} bytes)",
          offset, entry.image.size(), file_size);
    }
    extents.push_back({offset, entry.image.size(), entry.image});
  }
  KERCHUNK_RETURN_IF_ERROR(SortAndCheckDisjoint(extents));
  std::vector<std::byte> bytes(file.bytes().begin(), file.bytes().end());
  for (const Extent& e : extents) {
    if (!e.image.empty()) std::memcpy(bytes.data() + e.offset, e.image.data(), e.image.size());
  }
  return bytes;
}

Result<std::optional<std::vector<std::byte>>> ReadCacheImageOverlay(const File& file) {
  const uint64_t extension = file.superblock().extension_address;
  if (extension == kUndefinedAddress) return std::optional<std::vector<std::byte>>();
  auto message = FindHeaderMessage(file, extension, kMetadataCacheImageMessage);
  if (!message.ok()) return std::optional<std::vector<std::byte>>();
  KERCHUNK_ASSIGN_OR_RETURN(
      CacheImageLocation where,
      DecodeCacheImageMessage(file, message->Reader("metadata cache image message")));
  KERCHUNK_ASSIGN_OR_RETURN(std::vector<CacheImageEntry> entries, ReadCacheImageBlock(file, where));
  KERCHUNK_ASSIGN_OR_RETURN(std::vector<std::byte> overlay,
                            OverlayCacheImage(file, where, entries));
  return std::optional(std::move(overlay));
}

}  // namespace kerchunk::hdf5
