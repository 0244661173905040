// The codec pipeline of one zarr v2 array: its filters and compressor, applied as zarr does
// (encode: filters in order, then the compressor; decode: the reverse).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "kerchunk/codecs/codec.h"
#include "kerchunk/codecs/object_codecs.h"
#include "kerchunk/refs/zarr_metadata.h"
#include "kerchunk/util/status.h"

namespace kerchunk::codecs {

/// Largest decoded chunk Decode() accepts (4 GiB), so a hostile .zarray cannot make it allocate
/// without bound.
inline constexpr uint64_t kMaxDecodedChunkBytes = uint64_t{1} << 32;

/// The decoded size of one chunk: product of the chunk shape times the dtype's item size
/// (zarr v2 stores edge chunks at full size). Unsupported for object and record dtypes whose
/// item size is unknown; InvalidArgument when the product overflows.
Result<uint64_t> DecodedChunkSize(const ZarrArrayMeta& meta);

class Pipeline {
 public:
  /// An empty pipeline: stored bytes are the raw chunk.
  Pipeline() = default;

  /// The pipeline of an array (its "filters" then "compressor"). For object dtypes ("|O") the
  /// first filter must be an object codec (json2, vlen-utf8, vlen-bytes). Unsupported errors
  /// name the unknown codec id.
  static Result<Pipeline> FromZarray(const ZarrArrayMeta& meta);

  /// The same from the JSON values of "compressor" (null or an object) and "filters" (null or
  /// a list) and the dtype string.
  static Result<Pipeline> FromConfigs(const json::Value& compressor, const json::Value& filters,
                                      std::string_view dtype);

  /// Decodes a stored chunk to its raw bytes, which must be exactly `expected_size` bytes
  /// (DataLoss otherwise, naming the codec). Every step is bounded by the size the next step
  /// needs, so corrupt input never inflates beyond it. Unsupported for object arrays (use
  /// DecodeStrings) and for chains whose intermediate size cannot be known (a compressor used
  /// as a filter before another compressor).
  Result<std::string> Decode(std::string_view stored, uint64_t expected_size) const;

  /// The first `keep` bytes of Decode(stored, expected_size), after the same checks of every
  /// step; the last step produces only those where it can (shuffle). For values that end inside
  /// a chunk: a coordinate shorter than its one chunk.
  Result<std::string> DecodePrefix(std::string_view stored, uint64_t expected_size,
                                   uint64_t keep) const;

  /// Encodes raw chunk bytes (the inverse of Decode) for fixed-size dtypes.
  Result<std::string> Encode(std::string_view raw) const;

  /// Decodes a stored chunk of an object array into its strings. Each byte-codec step may
  /// produce at most `max_bytes`.
  Result<StringArray> DecodeStrings(std::string_view stored, uint64_t max_bytes) const;

  /// Encodes strings of an object array (the inverse of DecodeStrings).
  Result<std::string> EncodeStrings(const StringArray& items) const;

  /// True when the array's dtype is an object dtype (an object codec is the first filter).
  bool is_object() const { return object_codec_ != nullptr; }
  /// True when there is nothing to decode (raw stored bytes).
  bool empty() const { return codecs_.empty() && object_codec_ == nullptr; }
  /// Byte codecs in encoding order (filters, then the compressor).
  const std::vector<std::shared_ptr<const Codec>>& codecs() const { return codecs_; }

 private:
  Result<std::string> DecodeSteps(std::string_view stored, uint64_t expected_size,
                                  uint64_t keep) const;

  std::shared_ptr<const ObjectCodec> object_codec_;
  std::vector<std::shared_ptr<const Codec>> codecs_;
};

}  // namespace kerchunk::codecs
