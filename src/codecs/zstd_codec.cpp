// numcodecs "zstd": one or more zstd frames, decoded with the output bounded by the caller.
#include <zstd.h>

#include <algorithm>

#include "codecs/codec_factories.h"

namespace kerchunk::codecs::internal {
namespace {

// Streams frames into `out`, never beyond `limit` bytes; used when a frame does not declare its
// content size or the caller gives only an upper bound.
Result<std::string> StreamDecompress(std::string_view in, DecodedSize size) {
  std::unique_ptr<ZSTD_DCtx, decltype(&ZSTD_freeDCtx)> dctx(ZSTD_createDCtx(), ZSTD_freeDCtx);
  if (!dctx) return InternalError("zstd: cannot create a decompression context");
  std::string out(size.exact ? size.bytes : std::min<uint64_t>(size.bytes, 64 * 1024), '\0');
  ZSTD_inBuffer input{in.data(), in.size(), 0};
  uint64_t produced = 0;
  char probe = 0;
  while (true) {
    bool probing = produced == size.bytes;
    if (!probing && produced == out.size()) {
      out.resize(std::min<uint64_t>(std::max<uint64_t>(out.size() * 2, 64 * 1024), size.bytes));
    }
    ZSTD_outBuffer output{probing ? &probe : out.data() + produced,
                          probing ? 1 : out.size() - produced, 0};
    size_t rc = ZSTD_decompressStream(dctx.get(), &output, &input);
    if (ZSTD_isError(rc)) return DataLossError("zstd: corrupt stream: {}", ZSTD_getErrorName(rc));
    if (probing && output.pos > 0) {
      return DataLossError("zstd: stream decodes to more than {} bytes", size.bytes);
    }
    produced += output.pos;
    bool input_done = input.pos == input.size;
    // rc == 0: a frame ended exactly here; with no input left, the stream is complete.
    if (rc == 0 && input_done) break;
    // Output room left over with all input consumed: the frame needs bytes that are missing.
    if (input_done && output.pos < output.size) {
      return DataLossError("zstd: stream is truncated after {} decoded bytes", produced);
    }
  }
  KERCHUNK_RETURN_IF_ERROR(CheckDecodedSize("zstd", size, produced));
  out.resize(produced);
  return out;
}

class ZstdCodec final : public Codec {
 public:
  explicit ZstdCodec(int level) : level_(level) {}
  std::string_view id() const override { return "zstd"; }

  Result<std::string> Decode(std::string_view encoded, DecodedSize size) const override {
    if (encoded.empty()) return DataLossError("zstd: empty stream");
    unsigned long long declared = ZSTD_getFrameContentSize(encoded.data(), encoded.size());
    if (declared == ZSTD_CONTENTSIZE_ERROR) {
      return DataLossError("zstd: not a zstd frame (bad magic number or truncated header)");
    }
    // A declared size that contradicts the expected one is reported before any work.
    if (declared != ZSTD_CONTENTSIZE_UNKNOWN && size.exact && declared > size.bytes) {
      return DataLossError("zstd: frame declares {} bytes, expected {}", declared, size.bytes);
    }
    return StreamDecompress(encoded, size);
  }

  Result<std::string> Encode(std::string_view raw) const override {
    std::string out(ZSTD_compressBound(raw.size()), '\0');
    size_t n = ZSTD_compress(out.data(), out.size(), raw.data(), raw.size(), level_);
    if (ZSTD_isError(n)) return InternalError("zstd: compression failed: {}", ZSTD_getErrorName(n));
    out.resize(n);
    return out;
  }

  std::optional<uint64_t> EncodedSize(uint64_t) const override { return std::nullopt; }

  json::Value Config() const override {
    json::Value c = json::Value::MakeObject();
    c.Set("id", json::Value::String("zstd"));
    c.Set("level", json::Value::Int(level_));
    return c;
  }

 private:
  int level_;
};

}  // namespace

std::shared_ptr<const Codec> MakeZstd(int level) { return std::make_shared<ZstdCodec>(level); }

}  // namespace kerchunk::codecs::internal
