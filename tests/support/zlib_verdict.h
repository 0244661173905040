// zlib's own verdict on a zlib stream, the reference the zlib codec is held to (zlib's inflate
// with the zlib wrapper is what numcodecs, and so every Python reader of the references, uses).
// Header-only: the fuzz targets include it without linking the test support library.
#pragma once

#include <zlib.h>

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace kerchunk::testing {

/// The bytes of the zlib stream at the front of `in` if it is whole, its checksum right and it
/// decodes to exactly `size` bytes; nothing otherwise. Bytes after the stream are ignored, as
/// Python's zlib.decompress ignores them.
inline std::optional<std::string> ZlibVerdict(std::string_view in, uint64_t size) {
  z_stream zs{};
  if (inflateInit(&zs) != Z_OK) return std::nullopt;
  std::string out(size + 1, '\0');  // one byte more: a longer stream is caught, not cut
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
  zs.avail_in = static_cast<uInt>(in.size());
  zs.next_out = reinterpret_cast<Bytef*>(out.data());
  zs.avail_out = static_cast<uInt>(out.size());
  const int rc = inflate(&zs, Z_FINISH);
  const uint64_t produced = zs.total_out;
  inflateEnd(&zs);
  if (rc != Z_STREAM_END || produced != size) return std::nullopt;
  out.resize(size);
  return out;
}

}  // namespace kerchunk::testing
