// The numeric dtype under the name combine/coordinate.cpp uses. The type itself is in
// refs/zarr_dtype.h; this alias goes once coordinate.cpp, rewritten on another branch now,
// includes that header.
#pragma once

#include "refs/zarr_dtype.h"

namespace kerchunk::codecs::internal {
using kerchunk::internal::NumericType;
}  // namespace kerchunk::codecs::internal
