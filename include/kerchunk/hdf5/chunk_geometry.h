// What every chunk-index walker shares: the dataset description supplied by the caller, the
// per-chunk callback, and (internal) the chunk grid arithmetic used to turn an index position
// into chunk coordinates.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <span>
#include <type_traits>
#include <vector>

#include "kerchunk/hdf5/data_layout.h"
#include "kerchunk/hdf5/superblock.h"
#include "kerchunk/util/status.h"

namespace kerchunk::hdf5 {

/// A maximum dimension that can grow without bound (H5S_UNLIMITED).
inline constexpr uint64_t kUnlimited = ~uint64_t{0};

/// Everything the walker needs besides the file bytes. dims and max_dims come from libhdf5
/// (H5Sget_simple_extent_dims); max_dims uses kUnlimited for unlimited dimensions and may be
/// left empty to mean "equal to dims".
struct ChunkedDatasetInfo {
  /// H5Oget_info's `addr` (relative to the base address); informational for WalkChunkIndex.
  uint64_t object_header_address = kUndefinedAddress;
  std::vector<uint64_t> dims;
  std::vector<uint64_t> max_dims;
};

/// A non-owning reference to the per-chunk callback
///   Status(std::span<const uint64_t> coords, uint64_t file_offset, uint64_t size,
///          uint32_t filter_mask)
/// called once per allocated chunk with its coordinates in units of chunks (element offset /
/// chunk extent), its absolute byte offset in the file (HDF5 address + base address), its stored
/// size in bytes and its filter mask (bit i set: filter i was skipped). `coords` is only valid
/// during the call. A non-OK Status stops the walk and is returned by it. Like std::function_ref
/// it does not copy the callable: pass a lambda directly in the call.
class ChunkVisitor {
 public:
  template <typename F>
  requires(!std::is_same_v<std::remove_cvref_t<F>, ChunkVisitor> &&
           std::is_invocable_r_v<Status, F&, std::span<const uint64_t>, uint64_t, uint64_t,
                                 uint32_t>)
      ChunkVisitor(F&& f)  // NOLINT: implicit, like std::function
      : object_(const_cast<void*>(static_cast<const void*>(std::addressof(f)))),
        call_([](void* object, std::span<const uint64_t> coords, uint64_t offset, uint64_t size,
                 uint32_t mask) -> Status {
          return (*static_cast<std::remove_reference_t<F>*>(object))(coords, offset, size, mask);
        }) {}

  Status operator()(std::span<const uint64_t> coords, uint64_t file_offset, uint64_t size,
                    uint32_t filter_mask) const {
    return call_(object_, coords, file_offset, size, filter_mask);
  }

 private:
  void* object_;
  Status (*call_)(void*, std::span<const uint64_t>, uint64_t, uint64_t, uint32_t);
};

namespace internal {

/// HDF5's maximum dataspace rank (H5S_MAX_RANK).
inline constexpr unsigned kMaxRank = 32;
using DimArray = std::array<uint64_t, kMaxRank>;

/// The chunk grid of a chunked dataset, from its layout and its (current and maximum) shape.
struct ChunkGeometry {
  unsigned rank = 0;
  DimArray chunk_dims{};
  DimArray dims{};
  DimArray max_dims{};
  /// Chunks per dimension for the current shape: ceil(dims / chunk_dims).
  DimArray chunks{};
  /// Chunks per dimension for the maximum shape; kUnlimited for unlimited dimensions.
  DimArray max_chunks{};
  /// Bytes in one unfiltered chunk (chunk element count times element size).
  uint64_t chunk_bytes = 0;

  /// InvalidArgument when info's ranks disagree with the layout's; DataLoss when the chunk size
  /// overflows.
  static Result<ChunkGeometry> Make(const DataLayout& layout, const ChunkedDatasetInfo& info);
};

/// Chunk coordinates that advance through a linear index in row-major order over `extents`,
/// with dimensions taken in `order` (slowest first). The slowest dimension is never wrapped, so
/// it may be unlimited. Used by the array indexes, whose elements are chunks in that order.
class ChunkOdometer {
 public:
  ChunkOdometer(unsigned rank, const DimArray& extents, const std::array<uint8_t, kMaxRank>& order);

  /// Sets the coordinates of linear index `index`.
  void Seek(uint64_t index);
  /// Advances to the next linear index.
  void Next() {
    for (unsigned k = rank_; k-- > 1;) {
      const unsigned d = order_[k];
      if (++coords_[d] < extents_[d]) return;
      coords_[d] = 0;
    }
    ++coords_[order_[0]];
  }
  std::span<const uint64_t> coords() const { return {coords_.data(), rank_}; }

 private:
  unsigned rank_;
  DimArray extents_;
  std::array<uint8_t, kMaxRank> order_;
  DimArray down_{};  // linear stride of each position in order_, saturating at 2^64-1
  DimArray coords_{};
};

/// The identity order 0, 1, ..., rank-1 (plain C order).
std::array<uint8_t, kMaxRank> RowMajorOrder(unsigned rank);

/// File offset of a chunk at HDF5 address `address`; DataLoss naming `what` (a structure at
/// `where`) when the address is undefined or overflows.
Result<uint64_t> ChunkFileOffset(const File& file, uint64_t address, std::string_view what,
                                 uint64_t where);

}  // namespace internal
}  // namespace kerchunk::hdf5
