// Clearing the superblock status flags of an in-memory file image (h5clear -s), with the
// superblock checksum of versions 2 and 3 recomputed.
// Format: HDF5 File Format Specification, "II.A. Superblock" (file consistency flags),
// https://docs.hdfgroup.org/hdf5/develop/_f_m_t3.html#subsec_fmt3_boot_super
#include <cstring>

#include "hdf5/checksum.h"
#include "hdf5/h5_library.h"

namespace kerchunk::hdf5 {
namespace {

constexpr unsigned char kSignature[8] = {0x89, 'H', 'D', 'F', '\r', '\n', 0x1a, '\n'};

}  // namespace

Result<std::string> ClearSuperblockStatusFlags(std::span<const std::byte> image) {
  for (uint64_t at = 0; at + sizeof(kSignature) <= image.size(); at = at == 0 ? 512 : at * 2) {
    if (std::memcmp(image.data() + at, kSignature, sizeof(kSignature)) != 0) continue;
    std::string copy(reinterpret_cast<const char*>(image.data()), image.size());
    auto* sb = reinterpret_cast<unsigned char*>(copy.data()) + at;
    const uint64_t available = image.size() - at;
    if (available < 12) return DataLossError("truncated superblock at offset {}", at);
    const unsigned version = sb[8];
    if (version <= 1) {
      // Version 0/1: four flag bytes after the B-tree K values; no checksum.
      if (available < 24) return DataLossError("truncated superblock at offset {}", at);
      std::memset(sb + 20, 0, 4);
      return copy;
    }
    const unsigned offset_size = sb[9];
    const uint64_t checked = 12 + 4ull * offset_size;  // bytes covered by the checksum
    if (offset_size == 0 || offset_size > 8 || available < checked + 4) {
      return DataLossError("truncated or invalid version {} superblock at offset {}", version, at);
    }
    sb[11] = 0;
    const uint32_t sum = JenkinsLookup3(std::as_bytes(std::span(sb, checked)));
    for (int i = 0; i < 4; ++i) sb[checked + i] = static_cast<unsigned char>(sum >> (8 * i));
    return copy;
  }
  return DataLossError("no HDF5 superblock signature found");
}

}  // namespace kerchunk::hdf5
