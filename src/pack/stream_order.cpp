#include "stream_order.h"

#include "kerchunk/util/checked_math.h"

namespace kerchunk::pack::internal {

std::optional<StreamOrder> StreamOrder::Make(uint64_t variables, uint64_t chunks,
                                             uint64_t interleave) {
  if (!CheckedMul(variables, chunks)) return std::nullopt;
  if (interleave == 0 && chunks > 0) return std::nullopt;
  StreamOrder o;
  o.variables_ = variables;
  o.chunks_ = chunks;
  o.interleave_ = chunks == 0 ? 1 : (interleave > chunks ? chunks : interleave);
  o.full_blocks_ = chunks / o.interleave_;
  return o;
}

uint64_t StreamOrder::Slot(uint64_t var, uint64_t chunk) const {
  uint64_t block = chunk / interleave_;
  if (block < full_blocks_) {
    // blocks before: block * interleave * variables slots; then var's turn in this block.
    return block * interleave_ * variables_ + var * interleave_ + chunk % interleave_;
  }
  uint64_t start = full_blocks_ * interleave_;
  uint64_t tail = chunks_ - start;
  return start * variables_ + var * tail + (chunk - start);
}

StreamOrder::Cursor StreamOrder::At(uint64_t slot) const {
  Cursor c;
  c.order_ = this;
  c.slot_ = slot;
  uint64_t per_block = interleave_ * variables_;
  uint64_t block = slot / per_block;
  if (block < full_blocks_) {
    uint64_t rest = slot % per_block;
    c.block_start_ = block * interleave_;
    c.width_ = interleave_;
    c.var_ = rest / interleave_;
    c.within_ = rest % interleave_;
  } else {
    c.block_start_ = full_blocks_ * interleave_;
    c.width_ = chunks_ - c.block_start_;
    uint64_t rest = slot - c.block_start_ * variables_;
    c.var_ = rest / c.width_;
    c.within_ = rest % c.width_;
  }
  return c;
}

}  // namespace kerchunk::pack::internal
