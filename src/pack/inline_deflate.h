// Inline values that are zlib streams, stored inflated (docs/packed-format.md, "Inline values").
//
// Python kerchunk inlines small chunks as they are in the file, and in HDF5/NetCDF-4 files they
// are nearly all zlib streams (the deflate filter): each one compressed on its own, so the
// container's compressor cannot see what neighbouring chunks share, and cannot compress the
// Huffman-coded bits again. Inflated, the same values compress about twice as well. Exactness
// is kept by storing a value inflated only when zlib's compress2 at some level (1-9) gives back
// the very bytes of the file; the reader deflates it again at that level. (Files were written by
// zlib's deflate with its default window and memory level, which is what HDF5's filter and
// numcodecs both call; a reader whose zlib produced other bytes would be caught by the packed
// file's checksum on unpack, and its bytes would still decode to the same values.)
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "kerchunk/util/status.h"

namespace kerchunk::pack::internal {

/// A zlib stream's content and the level that reproduces the stream.
struct InflatedValue {
  std::string bytes;
  int level = 0;  ///< 1-9
};

/// The content of `stream` when it is one zlib stream (RFC 1950) that compress2 at some level
/// gives back byte for byte, trying `first_level` first (the level of the previous value is
/// usually right); nullopt otherwise, or when it inflates to more than `max_inflated` bytes.
std::optional<InflatedValue> InflateReproducibly(std::string_view stream, int first_level,
                                                 uint64_t max_inflated);

/// zlib's compress2 of `bytes` at `level` (1-9): what InflateReproducibly's stream was.
Result<std::string> DeflateAtLevel(std::string_view bytes, int level);

}  // namespace kerchunk::pack::internal
