// Fuzz target for the native HDF5 chunk-index walker. The input is an HDF5 file image: parse
// the superblock, then for the root object header, every object header the image holds ("OHDR"
// signatures, at most 16) and the address in the image's last 8 bytes (the seeds append their
// dataset's address there, which finds version 1 headers too) read the Data Layout message and, for
// chunked layouts, walk the index with a shape taken from the header's Dataspace message (or one
// chunk per dimension when there is none). Errors are expected; crashes, hangs and out-of-bounds
// reads are bugs.
#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>
#include <vector>

#include "kerchunk/hdf5/chunk_index.h"
#include "kerchunk/hdf5/object_header.h"

namespace {

using namespace kerchunk;

constexpr uint16_t kDataspaceMessage = 0x0001;

// Dataspace message versions 1 and 2: rank, flags (bit 0: max dims present), dims, max dims.
hdf5::ChunkedDatasetInfo ShapeOf(const hdf5::File& file, uint64_t address,
                                 const hdf5::DataLayout& layout) {
  hdf5::ChunkedDatasetInfo info;
  info.object_header_address = address;
  auto message = hdf5::FindHeaderMessage(file, address, kDataspaceMessage);
  if (message.ok()) {
    ByteReader r = message->Reader("dataspace message");
    auto version = r.U8(), rank = r.U8(), flags = r.U8();
    if (version.ok() && rank.ok() && flags.ok() && *rank == layout.rank() &&
        r.Skip(*version == 1 ? 5 : 0).ok()) {
      for (unsigned d = 0; d < *rank; ++d) {
        auto v = file.ReadLength(r);
        if (!v.ok()) break;
        info.dims.push_back(*v);
      }
      for (unsigned d = 0; (*flags & 1) && d < *rank && info.dims.size() == *rank; ++d) {
        auto v = file.ReadLength(r);
        if (!v.ok()) break;
        info.max_dims.push_back(*v);
      }
    }
  }
  if (info.dims.size() != layout.rank()) info.dims = layout.chunk_dims;
  if (info.max_dims.size() != info.dims.size()) info.max_dims.clear();
  return info;
}

void TryObject(const hdf5::File& file, uint64_t address) {
  auto layout = hdf5::ReadDataLayout(file, address);
  if (!layout.ok() || layout->layout_class != hdf5::LayoutClass::kChunked) return;
  hdf5::ChunkedDatasetInfo info = ShapeOf(file, address, *layout);
  uint64_t sum = 0;
  (void)hdf5::WalkChunkIndex(
      file, *layout, info,
      [&](std::span<const uint64_t> coords, uint64_t offset, uint64_t size, uint32_t mask) {
        sum += coords.empty() ? 0 : coords[0] + offset + size + mask;
        return kerchunk::OkStatus();
      });
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  const std::span<const std::byte> bytes(reinterpret_cast<const std::byte*>(data), size);
  auto file = hdf5::File::Open(bytes);
  if (!file.ok()) return 0;
  const uint64_t base = file->superblock().base_address;
  if (file->superblock().root_object_header_address != hdf5::kUndefinedAddress) {
    TryObject(*file, file->superblock().root_object_header_address);
  }
  if (size >= 8) {
    uint64_t hint = 0;
    for (int i = 0; i < 8; ++i) hint |= uint64_t{data[size - 8 + i]} << (8 * i);
    TryObject(*file, hint);
  }
  const std::string_view image(reinterpret_cast<const char*>(data), size);
  int tried = 0;
  for (size_t at = image.find("OHDR"); at != std::string_view::npos && tried < 16;
       at = image.find("OHDR", at + 1), ++tried) {
    if (at >= base) TryObject(*file, at - base);
  }
  return 0;
}
