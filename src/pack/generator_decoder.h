// A validated generator and the cursor that expands it, from any checkpoint.
//
// Make() checks every column against the others (counts, ranges, orderings) without allocating
// by a claimed size: memory is the decoded columns plus a padded copy of the length stream.
// A Cursor starts at the block (checkpoint) holding a reference and decodes forward, so one
// lookup decodes fewer than checkpoint_interval references whatever the size of the index.
// Decoding checks what it meets: bits past the block, a length that is not a valid length,
// a running end that disagrees with the next checkpoint.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "generator.h"
#include "presence.h"
#include "rice_codec.h"
#include "stream_order.h"

namespace kerchunk::pack::internal {

/// One expanded reference of a generator.
struct DecodedRef {
  uint64_t index = 0;  ///< among the generator's references
  uint64_t var = 0;    ///< index into the generator's variables
  uint64_t chunk = 0;  ///< linear chunk index
  uint32_t url = 0;    ///< id into the packed file's URLs
  uint64_t offset = 0;
  uint64_t length = 0;
};

class GeneratorDecoder {
 public:
  /// Validates the columns of a generator of a file holding `url_count` URLs. DataLoss naming
  /// the field on any inconsistency.
  static Result<GeneratorDecoder> Make(GeneratorColumns columns, uint64_t url_count);

  /// The columns as read (but lengths.data, which the decoder took over).
  const GeneratorColumns& columns() const { return columns_; }
  const StreamOrder& order() const { return order_; }
  uint64_t references() const { return columns_.references; }
  uint64_t chunks() const { return order_.chunks(); }

  /// The reference index of chunk `chunk` of variable `var`, or nullopt if absent.
  std::optional<uint64_t> IndexOf(uint64_t var, uint64_t chunk) const {
    return presence_.IndexOf(order_.Slot(var, chunk));
  }

  class Cursor {
   public:
    /// The index Step() decodes next.
    uint64_t next() const { return next_; }
    /// Decodes reference next() into `out`; false on corrupt data (see error()). Must not be
    /// called past the last reference.
    bool Step(DecodedRef& out);
    const Status& error() const { return error_; }
    /// After the last reference: checks that the length stream was consumed exactly.
    Status Finish() const;

   private:
    friend class GeneratorDecoder;
    explicit Cursor(const GeneratorDecoder& g) : g_(&g), reader_(g.stream_bytes(), 0) {}
    void EnterLengthBlock(uint64_t block);
    bool Fail(Status s) {
      error_ = std::move(s);
      return false;
    }
    uint64_t PredictLength(uint64_t var, uint64_t chunk) const;

    const GeneratorDecoder* g_;
    uint64_t next_ = 0, block_ = 0, block_end_ = 0;
    BitReader reader_;
    uint64_t bit_limit_ = 0;
    unsigned parameter_ = 0;
    bool zero_block_ = false;
    uint64_t end_ = 0;
    size_t gap_pos_ = 0, file_pos_ = 0;
    uint32_t url_ = 0;
    StreamOrder::Cursor slot_;
    size_t run_ = 0;
    uint64_t run_left_ = 0;
    std::array<uint64_t, kMaxPreviousVariables> previous_{};
    uint64_t previous_valid_ = 0;  // bit v: previous_[v] holds a length of this block
    Status error_;
  };

  /// A cursor whose next() is the first reference of the block holding `index` (< references).
  Cursor StartAt(uint64_t index) const;

  /// Decodes references [first, last), calling sink(const DecodedRef&) for each.
  template <typename Sink>
  Status Decode(uint64_t first, uint64_t last, Sink&& sink) const {
    if (first >= last) return OkStatus();
    Cursor c = StartAt(first);
    DecodedRef ref;
    while (c.next() < last) {
      if (!c.Step(ref)) return c.error();
      if (ref.index >= first) sink(ref);
    }
    return last == references() ? c.Finish() : OkStatus();
  }

  /// Decodes the references at `indices` (increasing), sharing the work within a block.
  template <typename Sink>
  Status DecodeSorted(std::span<const uint64_t> indices, Sink&& sink) const {
    std::optional<Cursor> c;
    DecodedRef ref;
    const uint64_t k = columns_.checkpoint_interval;
    for (uint64_t target : indices) {
      if (!c || target < c->next() || target / k > c->next() / k) c = StartAt(target);
      while (c->next() <= target) {
        if (!c->Step(ref)) return c->error();
      }
      sink(ref);
    }
    return OkStatus();
  }

 private:
  GeneratorDecoder() = default;
  const uint8_t* stream_bytes() const { return reinterpret_cast<const uint8_t*>(stream_.data()); }
  Status Validate(uint64_t url_count);
  Status ValidateLengths(uint64_t blocks);

  GeneratorColumns columns_;
  StreamOrder order_;
  Presence presence_;
  uint64_t inner_ = 1;               // chunks per index of the first dimension
  std::string stream_;               // length stream + BitReader::kPadding zero bytes
  std::vector<uint8_t> parameters_;  // per block
};

}  // namespace kerchunk::pack::internal
