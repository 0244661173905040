// The chunk grid of one zarr v2 array and the chunk keys on it ("3.0.17", or "0" for a scalar).
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "kerchunk/util/status.h"

namespace kerchunk {

/// Chunks of an array in C order. A chunk is identified by its linear index
/// (row-major over `counts`), which is how the reference model stores keys compactly.
class ChunkGrid {
 public:
  ChunkGrid() = default;

  /// Grid of an array with this shape and chunk shape. `separator` is the zarr
  /// dimension_separator ('.' or '/'). Fails when ranks differ, a chunk extent is 0, or the
  /// number of chunks does not fit in 64 bits.
  static Result<ChunkGrid> Make(std::vector<uint64_t> shape, std::vector<uint64_t> chunks,
                                char separator = '.');

  /// Grid of the array described by a .zarray document (zarr v2 JSON text).
  static Result<ChunkGrid> FromZarray(std::string_view zarray_json);

  size_t rank() const { return shape_.size(); }
  const std::vector<uint64_t>& shape() const { return shape_; }
  const std::vector<uint64_t>& chunks() const { return chunks_; }
  /// Chunks per dimension: ceil(shape / chunks).
  const std::vector<uint64_t>& counts() const { return counts_; }
  char separator() const { return separator_; }
  /// Total number of chunks (1 for a scalar; 0 when an extent is 0).
  uint64_t num_chunks() const { return num_chunks_; }

  /// Row-major linear index of chunk coordinates (must be inside the grid).
  uint64_t Linear(std::span<const uint64_t> coords) const;
  /// Coordinates of a linear index; `out` must have rank() elements.
  void Coords(uint64_t linear, std::span<uint64_t> out) const;

  /// Appends the key suffix of a chunk ("1.0.3"; "0" for rank 0) to `out`.
  void AppendKey(uint64_t linear, std::string& out) const;
  std::string Key(uint64_t linear) const;
  /// Parses a key suffix in canonical form (decimal without leading zeros, rank parts, inside
  /// the grid). Returns nullopt for anything else, so such keys are kept as plain entries.
  std::optional<uint64_t> ParseKey(std::string_view suffix) const;

  bool operator==(const ChunkGrid& o) const {
    return shape_ == o.shape_ && chunks_ == o.chunks_ && separator_ == o.separator_;
  }

 private:
  std::vector<uint64_t> shape_;
  std::vector<uint64_t> chunks_;
  std::vector<uint64_t> counts_;
  std::vector<uint64_t> strides_;  // linear-index stride of each dimension
  uint64_t num_chunks_ = 1;
  char separator_ = '.';
};

}  // namespace kerchunk
