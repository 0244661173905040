// Which slots of a generator hold a reference, as run lengths: an absent run (possibly empty),
// a present run, an absent run, ... Slots after the last present run are absent. Runs keep
// dense grids (a few missing chunks) and sparse ones (2 chunks written out of 4 million) small,
// and never cost memory per slot.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "kerchunk/util/status.h"

namespace kerchunk::pack::internal {

/// Run lengths of increasing slots given one at a time (pack side, in stream order).
class PresenceRunBuilder {
 public:
  void Add(uint64_t slot) {
    if (run_ > 0 && slot == start_ + run_) {
      ++run_;
      return;
    }
    if (run_ > 0) {
      runs_.push_back(run_);  // the present run that ended
      next_free_ = start_ + run_;
    }
    runs_.push_back(slot - next_free_);  // the absent run before this slot
    start_ = slot;
    run_ = 1;
  }
  /// The runs, after the last slot.
  std::vector<uint64_t> Finish() {
    if (run_ > 0) runs_.push_back(run_);
    run_ = 0;
    return std::move(runs_);
  }

 private:
  std::vector<uint64_t> runs_;
  uint64_t next_free_ = 0;  // first slot after the runs written so far
  uint64_t start_ = 0, run_ = 0;
};

class Presence {
 public:
  /// Run lengths of increasing slot numbers (pack side).
  static std::vector<uint64_t> RunsFromSlots(std::span<const uint64_t> slots);

  /// Validates runs against the number of slots: an even count of runs, each positive except
  /// the first absent run, and a total within `total_slots`. DataLoss otherwise.
  static Result<Presence> FromRuns(std::span<const uint64_t> runs, uint64_t total_slots);

  /// Number of present slots (references).
  uint64_t present() const { return before_.empty() ? 0 : before_.back(); }
  size_t run_count() const { return start_.size(); }
  uint64_t run_start(size_t run) const { return start_[run]; }
  uint64_t run_length(size_t run) const { return before_[run + 1] - before_[run]; }
  /// References before present run `run`.
  uint64_t run_first_index(size_t run) const { return before_[run]; }

  /// Index among the present slots of `slot`, or nullopt when the slot is absent.
  std::optional<uint64_t> IndexOf(uint64_t slot) const;
  /// The present run holding reference `index` (< present()).
  size_t RunOfIndex(uint64_t index) const;

 private:
  std::vector<uint64_t> start_;   // first slot of each present run
  std::vector<uint64_t> before_;  // references before each present run; one extra at the end
};

}  // namespace kerchunk::pack::internal
