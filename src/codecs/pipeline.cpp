#include "kerchunk/codecs/pipeline.h"

#include <algorithm>

#include "kerchunk/util/checked_math.h"

namespace kerchunk::codecs {
namespace {

bool IsObjectDtype(std::string_view dtype) { return dtype == "|O" || dtype == "O"; }

}  // namespace

Result<uint64_t> DecodedChunkSize(const ZarrArrayMeta& meta) {
  auto itemsize = meta.ItemSize();
  if (!itemsize) {
    return UnsupportedError("dtype {} has no fixed item size", meta.dtype);
  }
  uint64_t n = *itemsize;
  for (uint64_t c : meta.chunks) {
    auto next = CheckedMul(n, c);
    if (!next) return InvalidArgumentError("chunk shape times item size overflows 64 bits");
    n = *next;
  }
  return n;
}

Result<Pipeline> Pipeline::FromZarray(const ZarrArrayMeta& meta) {
  return FromConfigs(meta.compressor, meta.filters, meta.dtype);
}

Result<Pipeline> Pipeline::FromConfigs(const json::Value& compressor, const json::Value& filters,
                                       std::string_view dtype) {
  Pipeline p;
  CodecContext context;
  context.itemsize = DtypeItemSize(dtype).value_or(1);
  bool object = IsObjectDtype(dtype);
  if (!filters.is_null()) {
    if (!filters.is_array()) return InvalidArgumentError("expected \"filters\" to be a list");
    const auto& list = filters.as_array();
    for (size_t i = 0; i < list.size(); ++i) {
      // zarr applies an object array's object_codec as the first filter.
      if (i == 0 && object) {
        KERCHUNK_ASSIGN_OR_RETURN(p.object_codec_, MakeObjectCodec(list[i]).Annotate("filter 0"));
        continue;
      }
      KERCHUNK_ASSIGN_OR_RETURN(auto codec, MakeCodec(list[i], context).Annotate("filter {}", i));
      p.codecs_.push_back(std::move(codec));
    }
  }
  if (object && !p.object_codec_) {
    return UnsupportedError("object dtype without an object codec (json2, vlen-utf8) as filter 0");
  }
  if (!compressor.is_null()) {
    KERCHUNK_ASSIGN_OR_RETURN(auto codec, MakeCodec(compressor, context).Annotate("compressor"));
    p.codecs_.push_back(std::move(codec));
  }
  return p;
}

Result<std::string> Pipeline::Decode(std::string_view stored, uint64_t expected_size) const {
  return DecodeSteps(stored, expected_size, expected_size);
}

Result<std::string> Pipeline::DecodePrefix(std::string_view stored, uint64_t expected_size,
                                           uint64_t keep) const {
  return DecodeSteps(stored, expected_size, std::min(keep, expected_size));
}

Result<std::string> Pipeline::DecodeSteps(std::string_view stored, uint64_t expected_size,
                                          uint64_t keep) const {
  if (object_codec_) return UnsupportedError("object arrays decode to strings, not bytes");
  if (expected_size > kMaxDecodedChunkBytes) {
    return UnsupportedError("a decoded chunk of {} bytes exceeds the {}-byte limit", expected_size,
                            kMaxDecodedChunkBytes);
  }
  // Sizes are known from the end: codecs_[0] (the first filter) decodes last and must produce
  // the chunk; each codec before it in decode order must produce what the next one takes.
  const size_t n = codecs_.size();
  std::vector<std::optional<uint64_t>> output_size(n);
  std::optional<uint64_t> size = expected_size;
  for (size_t k = 0; k < n; ++k) {
    output_size[k] = size;
    size = size ? codecs_[k]->EncodedSize(*size) : std::nullopt;
  }
  if (n == 0) {
    if (stored.size() != expected_size) {
      return DataLossError("raw chunk has {} bytes, expected {}", stored.size(), expected_size);
    }
    return std::string(stored.substr(0, keep));
  }
  for (size_t k = 0; k < n; ++k) {
    if (!output_size[k]) {
      return UnsupportedError("{} decodes to an unknown size (a compressor comes after it)",
                              codecs_[k]->id());
    }
  }
  // When the last step needs only parts of its input for the kept prefix (shuffle), the step
  // before it keeps only those parts: a zlib stream then passes through a small buffer instead
  // of 4 MiB of memory that is zeroed, faulted in, written and freed.
  std::optional<std::vector<ByteSpan>> spans;
  if (n >= 2 && keep < expected_size) spans = codecs_[0]->PrefixInputSpans(expected_size, keep);
  std::string buffer;
  std::string_view input = stored;
  for (size_t k = n; k-- > 0;) {  // decode order: compressor first
    const Codec& codec = *codecs_[k];
    if (k == 1 && spans) {
      KERCHUNK_ASSIGN_OR_RETURN(buffer, codec.DecodeSpans(input, *output_size[k], *spans));
    } else if (k == 0 && spans) {  // the gathered parts decode to at least the kept prefix
      KERCHUNK_ASSIGN_OR_RETURN(buffer, codec.Decode(input, DecodedSize::Exactly(input.size())));
      if (buffer.size() > keep) buffer.resize(keep);
    } else if (k == 0 && keep < expected_size) {  // the last step: only what the caller keeps
      KERCHUNK_ASSIGN_OR_RETURN(buffer, codec.DecodePrefix(input, *output_size[k], keep));
    } else {
      KERCHUNK_ASSIGN_OR_RETURN(buffer, codec.Decode(input, DecodedSize::Exactly(*output_size[k])));
    }
    input = buffer;
  }
  return buffer;
}

Result<std::string> Pipeline::Encode(std::string_view raw) const {
  if (object_codec_) return UnsupportedError("object arrays encode strings, not bytes");
  std::string buffer(raw);
  for (const auto& codec : codecs_) {
    KERCHUNK_ASSIGN_OR_RETURN(buffer, codec->Encode(buffer));
  }
  return buffer;
}

Result<StringArray> Pipeline::DecodeStrings(std::string_view stored, uint64_t max_bytes) const {
  if (!object_codec_) return UnsupportedError("not an object array");
  std::string buffer(stored);
  for (size_t k = codecs_.size(); k-- > 0;) {
    KERCHUNK_ASSIGN_OR_RETURN(buffer, codecs_[k]->Decode(buffer, DecodedSize::AtMost(max_bytes)));
  }
  return object_codec_->Decode(buffer);
}

Result<std::string> Pipeline::EncodeStrings(const StringArray& items) const {
  if (!object_codec_) return UnsupportedError("not an object array");
  KERCHUNK_ASSIGN_OR_RETURN(std::string buffer, object_codec_->Encode(items));
  for (const auto& codec : codecs_) {
    KERCHUNK_ASSIGN_OR_RETURN(buffer, codec->Encode(buffer));
  }
  return buffer;
}

}  // namespace kerchunk::codecs
