// zlib streams written with chosen deflate parameters, for tests of the readers of zlib data
// (the codec's own decoder, the packed format's inline streams). Header-only, as
// zlib_verdict.h beside it.
#pragma once

#include <gtest/gtest.h>
#include <zlib.h>

#include <string>
#include <string_view>

namespace kerchunk::testing {

/// `bytes` as one zlib-format stream written by zlib's deflate at `level` with `strategy` and
/// `mem_level` (compress2 uses the defaults).
inline std::string ZlibDeflate(std::string_view bytes, int level, int strategy = Z_DEFAULT_STRATEGY,
                               int mem_level = 8) {
  z_stream zs{};
  EXPECT_EQ(deflateInit2(&zs, level, Z_DEFLATED, MAX_WBITS, mem_level, strategy), Z_OK);
  std::string out(deflateBound(&zs, bytes.size()), '\0');
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data()));
  zs.avail_in = static_cast<uInt>(bytes.size());
  zs.next_out = reinterpret_cast<Bytef*>(out.data());
  zs.avail_out = static_cast<uInt>(out.size());
  EXPECT_EQ(deflate(&zs, Z_FINISH), Z_STREAM_END);
  out.resize(zs.total_out);
  deflateEnd(&zs);
  return out;
}

}  // namespace kerchunk::testing
