// One numcodecs codec (zlib, gzip, zstd, blosc, shuffle, delta, fixedscaleoffset), decoding and
// encoding exactly as numcodecs does, so the bytes a zarr reader would see can be checked here.
//
// Decoding is bounded: a codec never produces more bytes than the caller says the stage may
// produce, so a corrupt or hostile stream (a "zip bomb") fails with DataLoss instead of
// exhausting memory.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "kerchunk/json/json_value.h"
#include "kerchunk/util/status.h"

namespace kerchunk::codecs {

/// How many bytes one decode step must produce.
struct DecodedSize {
  uint64_t bytes = 0;
  bool exact = true;  ///< exactly `bytes`; otherwise at most `bytes`

  static DecodedSize Exactly(uint64_t n) { return {n, true}; }
  static DecodedSize AtMost(uint64_t n) { return {n, false}; }
};

/// A byte range of one decode step's output.
struct ByteSpan {
  uint64_t offset = 0;
  uint64_t length = 0;
};

/// What a codec may need to know about the array it encodes (from the .zarray).
struct CodecContext {
  /// Item size of the array's dtype in bytes: blosc's typesize when encoding (numcodecs takes it
  /// from the array it is given). 1 for object and record dtypes.
  uint64_t itemsize = 1;
};

/// A bytes-to-bytes codec. Implementations are immutable and thread-safe.
class Codec {
 public:
  virtual ~Codec() = default;

  /// The numcodecs id, e.g. "zlib".
  virtual std::string_view id() const = 0;

  /// Decodes `encoded`. Fails with DataLoss when the stream is corrupt or truncated, or when the
  /// output would differ from `size` (exact) or exceed it (at most) — output beyond the bound is
  /// never produced.
  virtual Result<std::string> Decode(std::string_view encoded, DecodedSize size) const = 0;

  /// The first `keep` bytes of Decode(encoded, DecodedSize::Exactly(size)), after the same
  /// checks: the span [0, keep) of DecodeSpans, so a streaming decoder (zlib) holds only those.
  /// A codec that can produce part of its output (shuffle) skips the rest.
  virtual Result<std::string> DecodePrefix(std::string_view encoded, uint64_t size,
                                           uint64_t keep) const;

  /// The bytes of Decode(encoded, DecodedSize::Exactly(size)) in `spans` (sorted, disjoint,
  /// within `size`), concatenated, after the same checks: a stream is still decoded and checked
  /// to its end. A codec that decodes sequentially (zlib) passes its output through a small
  /// buffer instead of holding all `size` bytes.
  virtual Result<std::string> DecodeSpans(std::string_view encoded, uint64_t size,
                                          std::span<const ByteSpan> spans) const;

  /// Spans of this codec's input whose concatenation this codec decodes into output that starts
  /// with the first `keep` of the `size` bytes Decode would give; nullopt when it needs all its
  /// input. Shuffle: the first elements' bytes of each byte plane are the shuffled first
  /// elements, so the step before it need only produce those.
  virtual std::optional<std::vector<ByteSpan>> PrefixInputSpans(uint64_t size,
                                                                uint64_t keep) const {
    (void)size, (void)keep;
    return std::nullopt;
  }

  /// Encodes `raw` as numcodecs would with the same configuration.
  virtual Result<std::string> Encode(std::string_view raw) const = 0;

  /// The size of the encoded bytes when the decoded size is `decoded_size`, for codecs whose
  /// output size follows from their input size (shuffle, delta, fixedscaleoffset); nullopt for
  /// compressors, whose encoded size depends on the data.
  virtual std::optional<uint64_t> EncodedSize(uint64_t decoded_size) const = 0;

  /// The numcodecs configuration of this codec, e.g. {"id": "zlib", "level": 4}.
  virtual json::Value Config() const = 0;
};

/// Builds a codec from a numcodecs configuration object. Unknown ids are Unsupported errors
/// naming the id; malformed parameters are InvalidArgument errors naming the parameter.
/// Parameters numcodecs ignores on decoding (e.g. levels) are checked only for type.
Result<std::shared_ptr<const Codec>> MakeCodec(const json::Value& config,
                                               const CodecContext& context = {});

}  // namespace kerchunk::codecs
