// Constructors of the concrete codecs and the helpers that read numcodecs configurations; used
// by the registry (codec_registry.cpp) and nowhere else.
#pragma once

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>

#include "kerchunk/codecs/codec.h"
#include "kerchunk/json/json_value.h"

namespace kerchunk::codecs::internal {

/// An integer parameter of a codec configuration, or `fallback` when absent; InvalidArgument
/// when present but not an integer in [min, max].
Result<int64_t> IntParam(const json::Value& config, std::string_view codec, std::string_view name,
                         int64_t fallback, int64_t min, int64_t max);
/// A string parameter, or `fallback` when absent; InvalidArgument when not a string.
Result<std::string> StringParam(const json::Value& config, std::string_view codec,
                                std::string_view name, std::string_view fallback);
/// A number parameter (required); InvalidArgument when absent or not a number.
Result<double> NumberParam(const json::Value& config, std::string_view codec,
                           std::string_view name);

std::shared_ptr<const Codec> MakeZlib(int level);
std::shared_ptr<const Codec> MakeGzip(int level);
std::shared_ptr<const Codec> MakeZstd(int level);
/// `shuffle` as numcodecs: -1 auto (bit shuffle for 1-byte items, else byte), 0, 1, 2.
Result<std::shared_ptr<const Codec>> MakeBlosc(std::string cname, int clevel, int shuffle,
                                               uint64_t blocksize, uint64_t typesize);
std::shared_ptr<const Codec> MakeShuffle(uint64_t elementsize);
Result<std::shared_ptr<const Codec>> MakeDelta(std::string_view dtype, std::string_view astype);
Result<std::shared_ptr<const Codec>> MakeFixedScaleOffset(double scale, double offset,
                                                          std::string_view dtype,
                                                          std::string_view astype);

/// The DataLoss error of a decode whose output size is wrong.
Status SizeMismatch(std::string_view codec, DecodedSize size, uint64_t got);
/// Checks a finished decode's output size against `size`.
Status CheckDecodedSize(std::string_view codec, DecodedSize size, uint64_t got);

/// Collects the bytes of `spans` (sorted, disjoint) from a decode's output as it arrives in
/// pieces, for Codec::DecodeSpans.
class SpanCollector {
 public:
  explicit SpanCollector(std::span<const ByteSpan> spans);
  /// `piece` is the output from byte `at` on; pieces arrive in order.
  void Take(uint64_t at, std::string_view piece);
  std::string Finish() && { return std::move(out_); }

 private:
  std::span<const ByteSpan> spans_;
  size_t next_ = 0;
  std::string out_;
};

}  // namespace kerchunk::codecs::internal
