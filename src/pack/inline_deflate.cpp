#include "inline_deflate.h"

#include <zlib.h>

#include <array>
#include <memory>

#include "kerchunk/codecs/codec.h"
#include "kerchunk/json/json_value.h"

namespace kerchunk::pack::internal {
namespace {

// RFC 1950 header: method 8 (deflate), window <= 32 KiB, no preset dictionary, and the check
// bits. Cheaper to test than to start inflating every base64 value.
bool LooksLikeZlib(std::string_view s) {
  if (s.size() < 6) return false;
  const auto cmf = static_cast<uint8_t>(s[0]), flg = static_cast<uint8_t>(s[1]);
  return (cmf & 0x0f) == 8 && (cmf >> 4) <= 7 && (flg & 0x20) == 0 && (cmf * 256 + flg) % 31 == 0;
}

// The numcodecs zlib decoder (bounded output; a cut or corrupt stream is an error). It ignores
// bytes after the stream, as Python's zlib does; such a value is then not reproduced by
// re-deflating, so it is kept as it is.
const codecs::Codec& ZlibDecoder() {
  static const std::shared_ptr<const codecs::Codec> zlib = [] {
    json::Value config = json::Value::MakeObject();
    config.Set("id", json::Value::String("zlib"));
    return *codecs::MakeCodec(config);
  }();
  return *zlib;
}

// One compressor per level and thread, reset between values: starting a zlib compressor
// allocates and clears ~256 KiB, which would be most of the time of deflating a small value
// (a lookup of one inline key).
class LevelCompressors {
 public:
  LevelCompressors() = default;
  LevelCompressors(const LevelCompressors&) = delete;
  LevelCompressors& operator=(const LevelCompressors&) = delete;
  ~LevelCompressors() {
    for (auto& [started, zs] : streams_) {
      if (started) deflateEnd(&zs);
    }
  }
  // The compressor of `level` (1-9), reset; nullptr when zlib cannot start one.
  z_stream* Get(int level) {
    auto& [started, zs] = streams_[level];
    if (started) return deflateReset(&zs) == Z_OK ? &zs : nullptr;
    // compress2's parameters: zlib format, 32 KiB window, memory level 8, default strategy.
    started = deflateInit2(&zs, level, Z_DEFLATED, MAX_WBITS, 8, Z_DEFAULT_STRATEGY) == Z_OK;
    return started ? &zs : nullptr;
  }

 private:
  std::array<std::pair<bool, z_stream>, 10> streams_{};
};

}  // namespace

Result<std::string> DeflateAtLevel(std::string_view bytes, int level) {
  if (level < 1 || level > 9) return InvalidArgumentError("{} is not a zlib level", level);
  if (bytes.size() > UINT32_MAX) return UnsupportedError("inline value over 4 GiB");
  thread_local LevelCompressors compressors;
  z_stream* zs = compressors.Get(level);
  if (!zs) return InternalError("zlib cannot start compressing at level {}", level);
  std::string out(deflateBound(zs, bytes.size()), '\0');
  zs->next_in = reinterpret_cast<Bytef*>(const_cast<char*>(bytes.data()));
  zs->avail_in = static_cast<uInt>(bytes.size());
  zs->next_out = reinterpret_cast<Bytef*>(out.data());
  zs->avail_out = static_cast<uInt>(out.size());
  const int rc = deflate(zs, Z_FINISH);
  if (rc != Z_STREAM_END) return InternalError("zlib deflate at level {} failed ({})", level, rc);
  out.resize(zs->total_out);
  return out;
}

std::optional<InflatedValue> InflateReproducibly(std::string_view stream, int first_level,
                                                 uint64_t max_inflated) {
  if (!LooksLikeZlib(stream) || stream.size() > UINT32_MAX) return std::nullopt;
  Result<std::string> bytes =
      ZlibDecoder().Decode(stream, codecs::DecodedSize::AtMost(max_inflated));
  if (!bytes.ok()) return std::nullopt;
  // The header's level field (FLEVEL) narrows the candidates: 0 = level 1, 1 = 2-5, 2 = 6,
  // 3 = 7-9.
  static constexpr std::array<std::array<int, 4>, 4> kLevelsOf = {
      {{1, 0, 0, 0}, {2, 3, 4, 5}, {6, 0, 0, 0}, {7, 8, 9, 0}}};
  const auto& candidates = kLevelsOf[static_cast<uint8_t>(stream[1]) >> 6];
  auto reproduces = [&](int level) {
    Result<std::string> again = DeflateAtLevel(*bytes, level);
    return again.ok() && *again == stream;
  };
  for (int level : candidates) {
    if (level == first_level && reproduces(level)) return InflatedValue{std::move(*bytes), level};
  }
  for (int level : candidates) {
    if (level != 0 && level != first_level && reproduces(level)) {
      return InflatedValue{std::move(*bytes), level};
    }
  }
  return std::nullopt;
}

}  // namespace kerchunk::pack::internal
