// Exact counts of 64-bit values in one pass, for the most common one (the modal chunk length of
// the gfactor, a variable's usual gap): an open-addressing table sized by the distinct values,
// not by how many were counted. Compressed chunk lengths take hundreds to thousands of distinct
// values, so the table stays in cache where sorting every value would touch megabytes. Past
// `max_distinct` values the counter gives up (full()) rather than grow with the input, and the
// caller counts some other way (sorting).
#pragma once

#include <cstdint>
#include <vector>

namespace kerchunk::pack::internal {

class ValueCounter {
 public:
  explicit ValueCounter(uint64_t max_distinct = uint64_t{1} << 16)
      : max_distinct_(max_distinct), slots_(kInitialSlots) {}

  /// Counts `value`; ignored once full().
  void Add(uint64_t value) {
    if (full_) return;
    ++total_;
    Slot& s = Find(value);
    if (s.count == 0) {
      s.value = value;
      if (++distinct_ > max_distinct_) {
        full_ = true;
        return;
      }
      if (distinct_ * 2 > slots_.size()) {
        s.count = 1;
        Grow();
        return;
      }
    }
    ++s.count;
  }

  /// More than max_distinct values were seen: the counts are incomplete.
  bool full() const { return full_; }

  /// The most common value (the smallest of equally common ones; 0 when nothing was counted),
  /// and how many counted values differ from it.
  struct Mode {
    uint64_t value = 0;
    uint64_t others = 0;
  };
  Mode Most() const {
    Mode m;
    uint64_t best = 0;
    for (const Slot& s : slots_) {
      if (s.count > best || (s.count == best && s.count > 0 && s.value < m.value)) {
        best = s.count;
        m.value = s.value;
      }
    }
    m.others = total_ - best;
    return m;
  }

  uint64_t total() const { return total_; }
  uint64_t distinct() const { return distinct_; }

 private:
  static constexpr size_t kInitialSlots = 256;  // a power of two
  struct Slot {
    uint64_t value = 0;
    uint64_t count = 0;  // 0: empty
  };

  Slot& Find(uint64_t value) {
    const size_t mask = slots_.size() - 1;
    // Fibonacci hashing: the high bits of the product are well mixed even for small values.
    size_t i = static_cast<size_t>((value * 0x9E3779B97F4A7C15ULL) >> 32) & mask;
    while (slots_[i].count != 0 && slots_[i].value != value) i = (i + 1) & mask;
    return slots_[i];
  }

  void Grow() {
    std::vector<Slot> old(slots_.size() * 2);
    old.swap(slots_);
    for (const Slot& s : old) {
      if (s.count != 0) Find(s.value) = s;
    }
  }

  uint64_t max_distinct_;
  std::vector<Slot> slots_;
  uint64_t total_ = 0, distinct_ = 0;
  bool full_ = false;
};

}  // namespace kerchunk::pack::internal
