// Sizes for people: one unit style in every summary (binary units, as scan's summary and
// `ls -h` use), so that sizes printed by different commands can be compared at a glance.
#pragma once

#include <cstdint>
#include <string>

namespace kerchunk {

/// "812 B", "4.1 KiB", "12.2 MiB", "1.5 GiB" (1 KiB = 1024 B; one decimal above bytes).
std::string FormatBytes(uint64_t bytes);

}  // namespace kerchunk
