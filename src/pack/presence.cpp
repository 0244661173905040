#include "presence.h"

#include <algorithm>

#include "kerchunk/util/checked_math.h"

namespace kerchunk::pack::internal {

std::vector<uint64_t> Presence::RunsFromSlots(std::span<const uint64_t> slots) {
  PresenceRunBuilder builder;
  for (uint64_t slot : slots) builder.Add(slot);
  return builder.Finish();
}

Result<Presence> Presence::FromRuns(std::span<const uint64_t> runs, uint64_t total_slots) {
  if (runs.size() % 2 != 0) {
    return DataLossError("presence: expected pairs of absent and present runs, got {} runs",
                         runs.size());
  }
  Presence p;
  p.start_.reserve(runs.size() / 2);
  p.before_.reserve(runs.size() / 2 + 1);
  p.before_.push_back(0);
  uint64_t slot = 0;
  for (size_t r = 0; r < runs.size(); r += 2) {
    if ((r > 0 && runs[r] == 0) || runs[r + 1] == 0) {
      return DataLossError("presence: run {} is empty", runs[r + 1] == 0 ? r + 1 : r);
    }
    auto start = CheckedAdd(slot, runs[r]);
    auto end = start ? CheckedAdd(*start, runs[r + 1]) : std::nullopt;
    if (!end || *end > total_slots) {
      return DataLossError("presence: runs cover more than the {} slots of the generator",
                           total_slots);
    }
    p.start_.push_back(*start);
    p.before_.push_back(p.before_.back() + runs[r + 1]);
    slot = *end;
  }
  return p;
}

std::optional<uint64_t> Presence::IndexOf(uint64_t slot) const {
  auto it = std::upper_bound(start_.begin(), start_.end(), slot);
  if (it == start_.begin()) return std::nullopt;
  size_t run = static_cast<size_t>(it - start_.begin()) - 1;
  uint64_t within = slot - start_[run];
  if (within >= run_length(run)) return std::nullopt;
  return before_[run] + within;
}

size_t Presence::RunOfIndex(uint64_t index) const {
  // before_ is increasing: the run is the last one whose first index is <= index.
  auto it = std::upper_bound(before_.begin(), before_.end() - 1, index);
  return static_cast<size_t>(it - before_.begin()) - 1;
}

}  // namespace kerchunk::pack::internal
