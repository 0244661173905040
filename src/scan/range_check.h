// The scan driver's own guarantee that no reference points past the end of its file.
#pragma once

#include <cstdint>
#include <string>

#include "kerchunk/refs/reference_set.h"
#include "kerchunk/util/status.h"

namespace kerchunk::internal {

/// Checks that every [url, offset, length] reference to `url` (chunks and other keys) ends at
/// or before `file_size`, with overflow-safe arithmetic. DataLoss names the key, the range and
/// the file size (the caller adds the file's path). References to other URLs and inline data are
/// not checked.
Status CheckRangesInside(const ReferenceSet& refs, const std::string& url, uint64_t file_size);

}  // namespace kerchunk::internal
