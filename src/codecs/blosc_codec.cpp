// numcodecs "blosc" (Blosc 1 format) through libblosc's context functions, which use no global
// state and so are safe on several threads at once.
#include <blosc.h>

#include <array>

#include "codecs/codec_factories.h"

namespace kerchunk::codecs::internal {
namespace {

constexpr int kAutoShuffle = -1;  // numcodecs.Blosc.AUTOSHUFFLE

class BloscCodec final : public Codec {
 public:
  BloscCodec(std::string cname, int clevel, int shuffle, uint64_t blocksize, uint64_t typesize)
      : cname_(std::move(cname)),
        clevel_(clevel),
        shuffle_(shuffle),
        blocksize_(blocksize),
        typesize_(typesize) {}

  std::string_view id() const override { return "blosc"; }

  Result<std::string> Decode(std::string_view encoded, DecodedSize size) const override {
    if (encoded.size() < BLOSC_MIN_HEADER_LENGTH) {
      return DataLossError("blosc: {} bytes is shorter than the {}-byte header", encoded.size(),
                           BLOSC_MIN_HEADER_LENGTH);
    }
    // Validation checks that the header's compressed size fits in the buffer, which makes
    // decompression memory safe; trailing bytes are ignored, as numcodecs does.
    size_t nbytes = 0;
    if (blosc_cbuffer_validate(encoded.data(), encoded.size(), &nbytes) != 0) {
      return DataLossError("blosc: invalid header (compressed size beyond the {} stored bytes)",
                           encoded.size());
    }
    if (size.exact ? nbytes != size.bytes : nbytes > size.bytes) {
      return SizeMismatch("blosc", size, nbytes);
    }
    std::string out(nbytes, '\0');
    if (nbytes == 0) return out;
    int n = blosc_decompress_ctx(encoded.data(), out.data(), out.size(), 1);
    if (n < 0 || static_cast<size_t>(n) != nbytes) {
      return DataLossError("blosc: corrupt stream (decompression returned {})", n);
    }
    return out;
  }

  Result<std::string> Encode(std::string_view raw) const override {
    if (raw.size() > BLOSC_MAX_BUFFERSIZE) {
      return UnsupportedError("blosc: {} bytes exceed the Blosc 1 buffer limit", raw.size());
    }
    // Checked here, not at construction: decoding reads the compressor from each stream.
    if (blosc_compname_to_compcode(cname_.c_str()) < 0) {
      return UnsupportedError("blosc: compressor \"{}\" is not available (have {})", cname_,
                              blosc_list_compressors());
    }
    int shuffle = shuffle_;
    if (shuffle == kAutoShuffle) shuffle = typesize_ == 1 ? BLOSC_BITSHUFFLE : BLOSC_SHUFFLE;
    // Blosc treats type sizes above 255 as 1 (no shuffle possible); numcodecs passes them on.
    std::string out(raw.size() + BLOSC_MAX_OVERHEAD, '\0');
    int n = blosc_compress_ctx(clevel_, shuffle, typesize_, raw.size(), raw.data(), out.data(),
                               out.size(), cname_.c_str(), blocksize_, 1);
    if (n <= 0) return InternalError("blosc: compression with \"{}\" failed ({})", cname_, n);
    out.resize(static_cast<size_t>(n));
    return out;
  }

  std::optional<uint64_t> EncodedSize(uint64_t) const override { return std::nullopt; }

  json::Value Config() const override {
    json::Value c = json::Value::MakeObject();
    c.Set("id", json::Value::String("blosc"));
    c.Set("cname", json::Value::String(cname_));
    c.Set("clevel", json::Value::Int(clevel_));
    c.Set("shuffle", json::Value::Int(shuffle_));
    c.Set("blocksize", json::Value::Uint(blocksize_));
    return c;
  }

 private:
  std::string cname_;
  int clevel_;
  int shuffle_;
  uint64_t blocksize_;
  uint64_t typesize_;
};

}  // namespace

Result<std::shared_ptr<const Codec>> MakeBlosc(std::string cname, int clevel, int shuffle,
                                               uint64_t blocksize, uint64_t typesize) {
  if (shuffle < kAutoShuffle || shuffle > BLOSC_BITSHUFFLE) {
    return InvalidArgumentError("blosc: expected shuffle -1, 0, 1 or 2, got {}", shuffle);
  }
  return std::shared_ptr<const Codec>(
      std::make_shared<BloscCodec>(std::move(cname), clevel, shuffle, blocksize, typesize));
}

}  // namespace kerchunk::codecs::internal
