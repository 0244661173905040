// numcodecs "shuffle": byte k of every element goes to plane k (the same transposition as
// HDF5's shuffle filter, whose chunks are whole elements).
#include <algorithm>

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
    return Unshuffle(encoded, encoded.size() / std::max<uint64_t>(elementsize_, 1));
  }

  // Only the first elements are interleaved: a coordinate of 1,200 values in a chunk of 524,288
  // (netCDF-C's 4 MiB default for an unlimited 1-D variable) needs 9.6 KB of its 4 MiB.
  Result<std::string> DecodePrefix(std::string_view encoded, uint64_t size,
                                   uint64_t keep) const override {
    KERCHUNK_RETURN_IF_ERROR(
        CheckDecodedSize("shuffle", DecodedSize::Exactly(size), encoded.size()));
    KERCHUNK_RETURN_IF_ERROR(CheckWholeElements(encoded.size()));
    const uint64_t element = std::max<uint64_t>(elementsize_, 1);
    const uint64_t wanted = std::min<uint64_t>(keep, encoded.size());  // keep may be UINT64_MAX
    const uint64_t elements = (wanted + element - 1) / element;
    std::string out = Unshuffle(encoded, elements);
    if (out.size() > keep) out.resize(keep);
    return out;
  }

  // Byte plane k holds byte k of every element, so the first E elements are, in each plane, the
  // E bytes at its start; gathered plane after plane they are those elements shuffled.
  std::optional<std::vector<ByteSpan>> PrefixInputSpans(uint64_t size,
                                                        uint64_t keep) const override {
    const uint64_t element = std::max<uint64_t>(elementsize_, 1);
    if (keep >= size || size % element != 0) return std::nullopt;
    const uint64_t count = size / element;
    const uint64_t elements = (keep + element - 1) / element;
    std::vector<ByteSpan> spans;
    spans.reserve(element);
    for (uint64_t k = 0; k < element; ++k) spans.push_back({k * count, elements});
    return spans;
  }

  Result<std::string> Encode(std::string_view raw) const override {
    KERCHUNK_RETURN_IF_ERROR(CheckWholeElements(raw.size()));
    return Shuffle(raw);
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

  // Element e's byte k is in[k * count + e]. The first `elements` elements, interleaved.
  std::string Unshuffle(std::string_view in, uint64_t elements) const {
    if (elementsize_ <= 1) return std::string(in.substr(0, elements));
    const uint64_t count = in.size() / elementsize_;
    std::string out(elements * elementsize_, '\0');
    switch (elementsize_) {  // the common sizes with a constant stride, which compilers unroll
      case 2:
        Interleave<2>(in.data(), count, elements, out.data());
        break;
      case 4:
        Interleave<4>(in.data(), count, elements, out.data());
        break;
      case 8:
        Interleave<8>(in.data(), count, elements, out.data());
        break;
      default:
        for (uint64_t e = 0; e < elements; ++e) {
          for (uint64_t k = 0; k < elementsize_; ++k) {
            out[e * elementsize_ + k] = in[k * count + e];
          }
        }
    }
    return out;
  }

  template <uint64_t kSize>
  static void Interleave(const char* in, uint64_t count, uint64_t elements, char* out) {
    for (uint64_t e = 0; e < elements; ++e) {
      for (uint64_t k = 0; k < kSize; ++k) out[e * kSize + k] = in[k * count + e];
    }
  }

  std::string Shuffle(std::string_view in) const {
    if (elementsize_ <= 1) return std::string(in);
    std::string out(in.size(), '\0');
    const uint64_t count = in.size() / elementsize_;
    for (uint64_t k = 0; k < elementsize_; ++k) {
      for (uint64_t e = 0; e < count; ++e) out[k * count + e] = in[e * elementsize_ + k];
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
