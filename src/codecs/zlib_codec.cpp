// numcodecs "zlib" (zlib format, RFC 1950) and "gzip" (RFC 1952) through zlib's inflate, with
// the output bounded by the size the caller allows. A zlib-format stream is first given to the
// DeflateDecoder (deflate_decoder.h), 4 times faster than zlib on a netCDF time chunk of fill
// values and about as fast on noisy data; zlib decodes whatever it gives up on, and so has the
// last word on every stream.
#include <zlib.h>

#include <algorithm>
#include <cstring>
#include <memory>
#include <optional>

#include "codecs/adler32.h"
#include "codecs/codec_factories.h"
#include "codecs/deflate_decoder.h"

namespace kerchunk::codecs::internal {
namespace {

constexpr int kZlibWindowBits = MAX_WBITS;
constexpr int kGzipWindowBits = MAX_WBITS + 16;
constexpr int kRawWindowBits = -MAX_WBITS;

// zlib's stream state, ended on every path.
class InflateStream {
 public:
  InflateStream() = default;
  InflateStream(const InflateStream&) = delete;
  InflateStream& operator=(const InflateStream&) = delete;
  ~InflateStream() {
    if (started_) inflateEnd(&zs_);
  }
  bool Start(int window_bits) {
    started_ = inflateInit2(&zs_, window_bits) == Z_OK;
    return started_;
  }
  z_stream& zs() { return zs_; }

 private:
  z_stream zs_{};
  bool started_ = false;
};

// Makes room for more output: doubling, at least 64 KiB, at most `limit` bytes in all.
void GrowOutput(std::string& out, uint64_t limit) {
  uint64_t want = std::max<uint64_t>(out.size() * 2, 64 * 1024);
  out.resize(std::min(want, limit));
}

// Gives zlib the next piece of the input once it has used the last (avail_in is 32-bit).
void FeedInput(z_stream& zs, uint64_t& in_left) {
  if (zs.avail_in == 0 && in_left > 0) {
    zs.avail_in = static_cast<uInt>(std::min<uint64_t>(in_left, UINT32_MAX));
    in_left -= zs.avail_in;
  }
}

// What an inflate call's return code means: true at the end of the stream, false to go on,
// or the DataLoss error of a truncated or corrupt stream.
Result<bool> StreamEnded(std::string_view id, int rc, const z_stream& zs, uint64_t in_left,
                         uint64_t produced) {
  if (rc == Z_STREAM_END) return true;
  if (rc == Z_OK) return false;
  if (rc == Z_BUF_ERROR && zs.avail_in == 0 && in_left == 0) {
    return DataLossError("{}: stream is truncated after {} decoded bytes", id, produced);
  }
  return DataLossError("{}: corrupt stream: {}", id,
                       zs.msg ? zs.msg : "inflate error " + std::to_string(rc));
}

// Inflates one stream from the front of `in` into out[produced, limit), consuming its bytes
// from `in`. Output beyond `limit` is detected with a one-byte probe and never stored.
Status InflateOne(std::string_view id, std::string_view& in, std::string& out, uint64_t& produced,
                  uint64_t limit, int window_bits) {
  InflateStream stream;
  if (!stream.Start(window_bits)) return InternalError("{}: inflateInit2 failed", id);
  z_stream& zs = stream.zs();
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
  uint64_t in_left = in.size();
  char probe = 0;
  bool probing = false;
  while (true) {
    FeedInput(zs, in_left);
    if (zs.avail_out == 0) {
      probing = produced == limit;
      if (!probing && produced == out.size()) GrowOutput(out, limit);
      zs.next_out = reinterpret_cast<Bytef*>(probing ? &probe : out.data() + produced);
      zs.avail_out =
          probing ? 1 : static_cast<uInt>(std::min<uint64_t>(out.size() - produced, UINT32_MAX));
    }
    uInt before = zs.avail_out;
    int rc = inflate(&zs, Z_NO_FLUSH);
    uint64_t got = before - zs.avail_out;
    if (probing && got > 0) {
      return DataLossError("{}: stream decodes to more than {} bytes", id, limit);
    }
    produced += got;
    KERCHUNK_ASSIGN_OR_RETURN(bool ended, StreamEnded(id, rc, zs, in_left, produced));
    if (ended) break;
  }
  in.remove_prefix(in.size() - in_left - zs.avail_in);
  return OkStatus();
}

// The stored Adler-32 of a zlib stream, the 4 big-endian bytes at the front of `in` (which
// holds at least 4).
uint32_t StoredAdler32(std::string_view in) {
  const auto* t = reinterpret_cast<const unsigned char*>(in.data());
  return uint32_t{t[0]} << 24 | uint32_t{t[1]} << 16 | uint32_t{t[2]} << 8 | t[3];
}

// The zlib format's 2-byte header (RFC 1950, 2.2), checked as inflate's wrapper checks it and
// removed from `in`.
Status ReadZlibHeader(std::string_view id, std::string_view& in) {
  if (in.size() < 2) return DataLossError("{}: stream is truncated after 0 decoded bytes", id);
  auto cmf = static_cast<unsigned char>(in[0]);
  auto flg = static_cast<unsigned char>(in[1]);
  if ((cmf * 256u + flg) % 31 != 0) {
    return DataLossError("{}: corrupt stream: incorrect header check", id);
  }
  if ((cmf & 0x0F) != Z_DEFLATED) {
    return DataLossError("{}: corrupt stream: unknown compression method", id);
  }
  if ((cmf >> 4) + 8 > MAX_WBITS) {
    return DataLossError("{}: corrupt stream: invalid window size", id);
  }
  if ((flg & 0x20) != 0) return DataLossError("{}: corrupt stream: needs a preset dictionary", id);
  in.remove_prefix(2);
  return OkStatus();
}

// The 4-byte big-endian Adler-32 after the deflate data, compared with `computed` and removed
// from `in`.
Status CheckZlibTrailer(std::string_view id, std::string_view& in, uint32_t computed,
                        uint64_t produced) {
  if (in.size() < 4) {
    return DataLossError("{}: stream is truncated after {} decoded bytes", id, produced);
  }
  if (StoredAdler32(in) != computed) {
    return DataLossError("{}: corrupt stream: incorrect data check", id);
  }
  in.remove_prefix(4);
  return OkStatus();
}

// One zlib stream decoded whole by the DeflateDecoder into out[produced, limit), which `out`
// already holds: true when the decoder took it and its Adler-32 matched, and only then are
// `in` and `produced` moved past it. On false the caller decodes the stream with zlib.
bool InflateZlibStreamFast(std::string_view id, std::string_view& in, std::string& out,
                           uint64_t& produced, uint64_t limit) {
  std::string_view rest = in;
  if (out.size() < limit || !ReadZlibHeader(id, rest).ok()) return false;
  DeflateDecoder decoder(rest);
  char* stream_out = out.data() + produced;  // a match may not reach before the stream's start
  size_t pos = 0;
  if (decoder.Run(stream_out, pos, limit - produced, /*can_slide=*/false) !=
      DeflateDecoder::Step::kDone) {
    return false;
  }
  rest.remove_prefix(decoder.ConsumedBytes());
  if (rest.size() < 4 || StoredAdler32(rest) != Adler32(1, std::string_view(stream_out, pos))) {
    return false;
  }
  in = rest.substr(4);
  produced += pos;
  return true;
}

// One zlib-format stream: header and trailer are checked here and the deflate data between
// them is inflated raw, because zlib's own check of the trailer sums one byte at a time (a third
// of the scan of a 4 MiB coordinate chunk). Same checks, same failures as inflate with the zlib
// wrapper. The DeflateDecoder goes first; zlib decodes what it gives up on.
Status InflateZlibStream(std::string_view id, std::string_view& in, std::string& out,
                         uint64_t& produced, uint64_t limit) {
  if (InflateZlibStreamFast(id, in, out, produced, limit)) return OkStatus();
  KERCHUNK_RETURN_IF_ERROR(ReadZlibHeader(id, in));
  uint64_t start = produced;
  KERCHUNK_RETURN_IF_ERROR(InflateOne(id, in, out, produced, limit, kRawWindowBits));
  return CheckZlibTrailer(id, in, Adler32(1, std::string_view(out).substr(start, produced - start)),
                          produced);
}

// A zlib stream decoded through a buffer of this size when only some of its bytes are kept.
constexpr uInt kSpanBufferBytes = 64 * 1024;

// The DeflateDecoder's window when only spans are kept: the 32 KiB a match may reach back, and
// room for the output between two hand-overs.
constexpr size_t kMatchHistoryBytes = 32 * 1024;
constexpr size_t kSpanWindowBytes = kMatchHistoryBytes + 128 * 1024;

// InflateZlibSpans by the DeflateDecoder: nullopt where it gives up or the stream is not
// exactly `size` bytes with a matching Adler-32 (zlib then decodes it and says why).
std::optional<std::string> InflateZlibSpansFast(std::string_view id, std::string_view in,
                                                uint64_t size, std::span<const ByteSpan> spans) {
  if (!ReadZlibHeader(id, in).ok()) return std::nullopt;
  DeflateDecoder decoder(in);
  // A small chunk gets a window its size: it fits without a slide, and an output that does
  // not fit is longer than `size`, refused at the hand-over below before any slide.
  const size_t window_bytes =
      size < kSpanWindowBytes ? size + DeflateDecoder::kRoomPerSymbol : kSpanWindowBytes;
  auto window = std::make_unique_for_overwrite<char[]>(window_bytes);
  SpanCollector collector(spans);
  uint64_t produced = 0;
  uint32_t adler = 1;
  size_t pos = 0, handed = 0;  // window[handed, pos) is output not yet handed over
  while (true) {
    const DeflateDecoder::Step step =
        decoder.Run(window.get(), pos, window_bytes, /*can_slide=*/true);
    if (step == DeflateDecoder::Step::kGiveUp) return std::nullopt;
    const std::string_view piece(window.get() + handed, pos - handed);
    if (piece.size() > size - produced) return std::nullopt;
    adler = Adler32(adler, piece);
    collector.Take(produced, piece);
    produced += piece.size();
    if (step == DeflateDecoder::Step::kDone) break;
    const size_t keep = std::min(pos, kMatchHistoryBytes);  // kNeedRoom: slide the window
    std::memmove(window.get(), window.get() + pos - keep, keep);
    pos = handed = keep;
  }
  in.remove_prefix(decoder.ConsumedBytes());
  if (produced != size || in.size() < 4 || StoredAdler32(in) != adler) return std::nullopt;
  return std::move(collector).Finish();
}

// The bytes of `spans` of one zlib stream of exactly `size` decoded bytes. The whole stream is
// inflated and its checksum checked, but only the spans are kept.
Result<std::string> InflateZlibSpans(std::string_view id, std::string_view in, uint64_t size,
                                     std::span<const ByteSpan> spans) {
  if (std::optional<std::string> fast = InflateZlibSpansFast(id, in, size, spans)) {
    return *std::move(fast);
  }
  KERCHUNK_RETURN_IF_ERROR(ReadZlibHeader(id, in));
  InflateStream stream;
  if (!stream.Start(kRawWindowBits)) return InternalError("{}: inflateInit2 failed", id);
  z_stream& zs = stream.zs();
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
  uint64_t in_left = in.size();
  auto buffer = std::make_unique<char[]>(kSpanBufferBytes);
  SpanCollector collector(spans);
  uint64_t produced = 0;
  uint32_t adler = 1;
  while (true) {
    FeedInput(zs, in_left);
    zs.next_out = reinterpret_cast<Bytef*>(buffer.get());
    zs.avail_out = kSpanBufferBytes;
    int rc = inflate(&zs, Z_NO_FLUSH);
    std::string_view piece(buffer.get(), kSpanBufferBytes - zs.avail_out);
    if (piece.size() > size - produced) {
      return DataLossError("{}: stream decodes to more than {} bytes", id, size);
    }
    adler = Adler32(adler, piece);
    collector.Take(produced, piece);
    produced += piece.size();
    KERCHUNK_ASSIGN_OR_RETURN(bool ended, StreamEnded(id, rc, zs, in_left, produced));
    if (ended) break;
  }
  in.remove_prefix(in.size() - in_left - zs.avail_in);
  KERCHUNK_RETURN_IF_ERROR(CheckZlibTrailer(id, in, adler, produced));
  KERCHUNK_RETURN_IF_ERROR(CheckDecodedSize(id, DecodedSize::Exactly(size), produced));
  return std::move(collector).Finish();
}

// zlib: one stream, trailing bytes ignored (as Python's zlib.decompress, which numcodecs uses).
// gzip: further members are decoded and appended and trailing zero bytes are ignored (as
// Python's gzip module).
Result<std::string> Inflate(std::string_view id, std::string_view in, DecodedSize size,
                            int window_bits) {
  // An exact size is allocated at once; an upper bound only as output arrives.
  std::string out(size.exact ? size.bytes : 0, '\0');
  uint64_t produced = 0;
  if (window_bits == kZlibWindowBits) {
    KERCHUNK_RETURN_IF_ERROR(InflateZlibStream(id, in, out, produced, size.bytes));
  } else {
    KERCHUNK_RETURN_IF_ERROR(InflateOne(id, in, out, produced, size.bytes, window_bits));
  }
  if (window_bits == kGzipWindowBits) {
    while (true) {
      while (!in.empty() && in.front() == '\0') in.remove_prefix(1);
      if (in.empty()) break;
      KERCHUNK_RETURN_IF_ERROR(InflateOne(id, in, out, produced, size.bytes, window_bits));
    }
  }
  KERCHUNK_RETURN_IF_ERROR(CheckDecodedSize(id, size, produced));
  out.resize(produced);
  return out;
}

Result<std::string> Deflate(std::string_view id, std::string_view in, int level, int window_bits) {
  z_stream zs{};
  if (deflateInit2(&zs, level, Z_DEFLATED, window_bits, 8, Z_DEFAULT_STRATEGY) != Z_OK) {
    return InvalidArgumentError("{}: cannot start compression at level {}", id, level);
  }
  std::string out(deflateBound(&zs, in.size()), '\0');
  zs.next_in = reinterpret_cast<Bytef*>(const_cast<char*>(in.data()));
  zs.avail_in = static_cast<uInt>(in.size());
  zs.next_out = reinterpret_cast<Bytef*>(out.data());
  zs.avail_out = static_cast<uInt>(out.size());
  int rc = deflate(&zs, Z_FINISH);
  uint64_t written = zs.total_out;
  deflateEnd(&zs);
  if (rc != Z_STREAM_END) return InternalError("{}: deflate failed ({})", id, rc);
  out.resize(written);
  return out;
}

class ZlibCodec final : public Codec {
 public:
  ZlibCodec(bool gzip, int level) : gzip_(gzip), level_(level) {}
  std::string_view id() const override { return gzip_ ? "gzip" : "zlib"; }
  Result<std::string> Decode(std::string_view encoded, DecodedSize size) const override {
    return Inflate(id(), encoded, size, gzip_ ? kGzipWindowBits : kZlibWindowBits);
  }
  Result<std::string> DecodeSpans(std::string_view encoded, uint64_t size,
                                  std::span<const ByteSpan> spans) const override {
    if (gzip_) return Codec::DecodeSpans(encoded, size, spans);
    return InflateZlibSpans(id(), encoded, size, spans);
  }
  Result<std::string> Encode(std::string_view raw) const override {
    if (raw.size() > UINT32_MAX) return UnsupportedError("{}: input over 4 GiB", id());
    return Deflate(id(), raw, level_, gzip_ ? kGzipWindowBits : kZlibWindowBits);
  }
  std::optional<uint64_t> EncodedSize(uint64_t) const override { return std::nullopt; }
  json::Value Config() const override {
    json::Value c = json::Value::MakeObject();
    c.Set("id", json::Value::String(std::string(id())));
    c.Set("level", json::Value::Int(level_));
    return c;
  }

 private:
  bool gzip_;
  int level_;
};

}  // namespace

std::shared_ptr<const Codec> MakeZlib(int level) {
  return std::make_shared<ZlibCodec>(false, level);
}
std::shared_ptr<const Codec> MakeGzip(int level) {
  return std::make_shared<ZlibCodec>(true, level);
}

}  // namespace kerchunk::codecs::internal
