// numcodecs "shuffle": byte k of every element goes to plane k (the same transposition as
// HDF5's shuffle filter, whose chunks are whole elements).
#include "codecs/codec_factories.h"

namespace kerchunk::codecs::internal {
namespace {

class ShuffleCodec final : public Codec {
 public:
  explicit ShuffleCodec(uint64_t elementsize) : elementsize_(elementsize) {}
  std::string_view id() const override { return "shuffle"; }

  Result<std::string> Decode(std::string_view encoded, DecodedSize size) const override {
    KERCHUNK_RETURN_IF_ERROR(CheckDecodedSize("shuffle", size, encoded.size()));
    KERCHUNK_RETURN_IF_ERROR(CheckWholeElements(encoded.size()));
    return Transpose(encoded, /*unshuffle=*/true);
  }

  Result<std::string> Encode(std::string_view raw) const override {
    KERCHUNK_RETURN_IF_ERROR(CheckWholeElements(raw.size()));
    return Transpose(raw, /*unshuffle=*/false);
  }

  std::optional<uint64_t> EncodedSize(uint64_t decoded_size) const override { return decoded_size; }

  json::Value Config() const override {
    json::Value c = json::Value::MakeObject();
    c.Set("id", json::Value::String("shuffle"));
    c.Set("elementsize", json::Value::Uint(elementsize_));
    return c;
  }

 private:
  // numcodecs refuses buffers that are not whole elements (HDF5 would copy the tail as is).
  Status CheckWholeElements(uint64_t n) const {
    if (elementsize_ > 1 && n % elementsize_ != 0) {
      return DataLossError("shuffle: {} bytes is not a whole number of {}-byte elements", n,
                           elementsize_);
    }
    return OkStatus();
  }

  std::string Transpose(std::string_view in, bool unshuffle) const {
    if (elementsize_ <= 1) return std::string(in);
    std::string out(in.size(), '\0');
    const uint64_t count = in.size() / elementsize_;
    for (uint64_t plane = 0; plane < elementsize_; ++plane) {
      const uint64_t base = plane * count;
      for (uint64_t e = 0; e < count; ++e) {
        uint64_t interleaved = e * elementsize_ + plane;
        if (unshuffle) {
          out[interleaved] = in[base + e];
        } else {
          out[base + e] = in[interleaved];
        }
      }
    }
    return out;
  }

  uint64_t elementsize_;
};

}  // namespace

std::shared_ptr<const Codec> MakeShuffle(uint64_t elementsize) {
  return std::make_shared<ShuffleCodec>(elementsize);
}

}  // namespace kerchunk::codecs::internal
