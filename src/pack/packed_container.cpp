#include "packed_container.h"

#include <zstd.h>

#include <algorithm>
#include <memory>

namespace kerchunk::pack::internal {

namespace {

// Texts up to this size get the strongest level (22): it costs a few milliseconds there (64 KiB
// of base64: under 5 ms), and small indexes are mostly metadata text, where every byte shows.
// (At 1 MiB of base64 it would cost 0.4 s.)
constexpr size_t kSmallText = size_t{64} << 10;
// Larger texts are mostly base64 of nearly random bytes (generator columns, inline chunk
// bytes). Measured on a 87,003-reference scanned series (1,000 chunks x 3 variables x 30 files;
// 177 KB of packed JSON) and the MultiZarrToZarr CMIP6 siconc index (380 KB): level 3 gives 1.22
// B/ref and 186 KB, level 9 1.17 and 180 KB, level 19 1.16 and 175 KB. On 6 MB of base64 level
// 3 takes 20 ms, level 9 100 ms, level 19 2.1 s; on 875,402 references (2.8 MB of packed JSON)
// level 6 made pack 1.9x slower. So level 9 up to 1 MiB (at most ~20 ms), level 3 above, where
// pack's own time is the budget.
constexpr size_t kMediumText = size_t{1} << 20;
constexpr int kMediumTextLevel = 9;
constexpr int kLargeTextLevel = 3;
// A text that the first level shrinks below this share is mostly text (metadata, JSON-encoded
// records) rather than base64, and gets level 19 as `zstd -19` would: 6 MB of text records
// compress 1-2% better for ~6 s.
constexpr double kWorthStrongLevel = 0.4;
constexpr int kStrongLevel = 19;

std::string Compress(std::string_view text, int level) {
  std::unique_ptr<ZSTD_CCtx, decltype(&ZSTD_freeCCtx)> cctx(ZSTD_createCCtx(), ZSTD_freeCCtx);
  if (!cctx) throw std::bad_alloc();
  const std::string_view dict = ContainerDictionary();
  std::string out(kContainerMagic);
  out.resize(kContainerMagic.size() + ZSTD_compressBound(text.size()));
  const size_t n = ZSTD_compress_usingDict(cctx.get(), out.data() + kContainerMagic.size(),
                                           out.size() - kContainerMagic.size(), text.data(),
                                           text.size(), dict.data(), dict.size(), level);
  // With an output buffer of ZSTD_compressBound, only allocation can fail.
  if (ZSTD_isError(n)) throw std::bad_alloc();
  out.resize(kContainerMagic.size() + n);
  return out;
}

}  // namespace

std::string WrapContainer(std::string_view json_text) {
  if (json_text.size() <= kSmallText) return Compress(json_text, ZSTD_maxCLevel());
  std::string fast =
      Compress(json_text, json_text.size() <= kMediumText ? kMediumTextLevel : kLargeTextLevel);
  if (static_cast<double>(fast.size()) >
      kWorthStrongLevel * static_cast<double>(json_text.size())) {
    return fast;
  }
  std::string best = Compress(json_text, kStrongLevel);
  return best.size() < fast.size() ? best : fast;
}

Result<std::string> UnwrapContainer(std::string bytes) {
  if (!IsContainer(bytes)) return bytes;
  const std::string_view frame = std::string_view(bytes).substr(kContainerMagic.size());
  const unsigned long long recorded = ZSTD_getFrameContentSize(frame.data(), frame.size());
  if (recorded == ZSTD_CONTENTSIZE_ERROR || recorded == ZSTD_CONTENTSIZE_UNKNOWN) {
    return DataLossError("packed container: no zstd frame with a recorded size after the magic");
  }
  const uint64_t size = recorded;
  if (size > kMaxContainerTextBytes) {
    return DataLossError("packed container: {} bytes of text, more than a reader takes ({})", size,
                         kMaxContainerTextBytes);
  }
  if (ZSTD_findFrameCompressedSize(frame.data(), frame.size()) != frame.size()) {
    return DataLossError("packed container: not exactly one zstd frame after the magic");
  }
  std::unique_ptr<ZSTD_DCtx, decltype(&ZSTD_freeDCtx)> dctx(ZSTD_createDCtx(), ZSTD_freeDCtx);
  if (!dctx) throw std::bad_alloc();
  const std::string_view dict = ContainerDictionary();
  // A dictionary that does not start with zstd's dictionary magic is raw content.
  const size_t loaded = ZSTD_DCtx_loadDictionary(dctx.get(), dict.data(), dict.size());
  if (ZSTD_isError(loaded)) throw std::bad_alloc();
  // Streamed, the output growing with what actually decodes: a frame that claims gigabytes
  // makes the reader allocate only what its bytes expand to.
  std::string text;
  ZSTD_inBuffer in{frame.data(), frame.size(), 0};
  for (size_t ret = 1; ret != 0;) {
    const size_t at = text.size();
    const size_t step = std::min<uint64_t>(size - at + 1, uint64_t{1} << 24);
    text.resize(at + step);
    ZSTD_outBuffer o{text.data() + at, step, 0};
    ret = ZSTD_decompressStream(dctx.get(), &o, &in);
    text.resize(at + o.pos);
    if (ZSTD_isError(ret)) {
      return DataLossError("packed container: zstd: {}", ZSTD_getErrorName(ret));
    }
    if (text.size() > size || (ret != 0 && in.pos == in.size && o.pos < o.size)) {
      return DataLossError("packed container: the zstd frame does not hold the {} bytes it records",
                           size);
    }
  }
  if (text.size() != size) {
    return DataLossError("packed container: the zstd frame holds {} bytes, it records {}",
                         text.size(), size);
  }
  return text;
}

}  // namespace kerchunk::pack::internal
