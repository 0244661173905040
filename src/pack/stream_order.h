// The order in which a generator visits the chunks of its variables ("slots").
//
// The chunk grid is cut into blocks of `interleave` consecutive linear chunk indices (the last
// block may be shorter); within a block each variable in turn takes its chunks. interleave = 1
// is chunk-major order (var0/0, var1/0, var0/1, ...), interleave = number of chunks is
// variable-major order (all of var0, then all of var1), and values in between follow files
// that store each variable's part of a time range one after another. Every variable's chunks
// appear in increasing chunk order whatever the interleave.
#pragma once

#include <cstdint>
#include <optional>

namespace kerchunk::pack::internal {

class StreamOrder {
 public:
  /// nullopt when variables * chunks does not fit in 64 bits, or interleave is 0 while there
  /// are chunks. An interleave above `chunks` is treated as `chunks`.
  static std::optional<StreamOrder> Make(uint64_t variables, uint64_t chunks, uint64_t interleave);

  uint64_t variables() const { return variables_; }
  uint64_t chunks() const { return chunks_; }
  uint64_t interleave() const { return interleave_; }
  uint64_t slots() const { return variables_ * chunks_; }

  /// Slot of chunk `chunk` of variable `var` (both in range).
  uint64_t Slot(uint64_t var, uint64_t chunk) const;

  /// Walks slots in order, keeping variable and chunk without dividing at each step.
  class Cursor {
   public:
    uint64_t slot() const { return slot_; }
    uint64_t var() const { return var_; }
    uint64_t chunk() const { return block_start_ + within_; }
    /// Moves to the next slot (must not be past the last one).
    void Next() {
      ++slot_;
      if (++within_ < width_) return;
      within_ = 0;
      if (++var_ < order_->variables_) return;
      var_ = 0;
      block_start_ += width_;
      width_ = order_->WidthAt(block_start_);
    }

   private:
    friend class StreamOrder;
    const StreamOrder* order_ = nullptr;
    uint64_t slot_ = 0, var_ = 0, block_start_ = 0, width_ = 0, within_ = 0;
  };
  /// A cursor at `slot` (< slots()).
  Cursor At(uint64_t slot) const;

 private:
  uint64_t WidthAt(uint64_t block_start) const {
    return chunks_ - block_start < interleave_ ? chunks_ - block_start : interleave_;
  }
  uint64_t variables_ = 0, chunks_ = 0, interleave_ = 1;
  uint64_t full_blocks_ = 0;  // blocks of exactly `interleave` chunks
};

}  // namespace kerchunk::pack::internal
