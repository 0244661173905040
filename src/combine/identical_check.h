// --check-identical: variables taken from the first part must hold the same values in every part.
#pragma once

#include <string>

#include "combine/part_view.h"

namespace kerchunk::internal {

/// Compares variable `path` of `part` with the first part's: shape, chunks and dtype, then the
/// set of chunks and each chunk's decoded bytes (references to the same bytes are equal without
/// reading). InvalidArgument naming the part, the variable and the first chunk that differs;
/// read and decode errors name the chunk.
Status CheckIdenticalVariable(const PartView& first, const PartView& part, const std::string& path,
                              const UrlToPath& url_to_path);

}  // namespace kerchunk::internal
