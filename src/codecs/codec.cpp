// What every codec shares: the default DecodePrefix and DecodeSpans (decode all, then gather) and
// the collector of span bytes that streaming decoders feed piece by piece.
#include "kerchunk/codecs/codec.h"

#include <algorithm>

#include "codecs/codec_factories.h"

namespace kerchunk::codecs {

namespace internal {

SpanCollector::SpanCollector(std::span<const ByteSpan> spans) : spans_(spans) {
  uint64_t total = 0;
  for (const ByteSpan& s : spans_) total += s.length;
  out_.reserve(total);
}

void SpanCollector::Take(uint64_t at, std::string_view piece) {
  const uint64_t end = at + piece.size();
  while (next_ < spans_.size()) {
    const ByteSpan& s = spans_[next_];
    if (s.offset >= end) return;
    const uint64_t from = std::max(s.offset, at);
    const uint64_t to = std::min(s.offset + s.length, end);
    if (from < to) out_.append(piece.substr(from - at, to - from));
    if (s.offset + s.length > end) return;  // the span continues in the next piece
    ++next_;
  }
}

}  // namespace internal

Result<std::string> Codec::DecodePrefix(std::string_view encoded, uint64_t size,
                                        uint64_t keep) const {
  if (keep >= size) return Decode(encoded, DecodedSize::Exactly(size));
  const ByteSpan prefix{0, keep};
  return DecodeSpans(encoded, size, std::span(&prefix, 1));
}

Result<std::string> Codec::DecodeSpans(std::string_view encoded, uint64_t size,
                                       std::span<const ByteSpan> spans) const {
  KERCHUNK_ASSIGN_OR_RETURN(std::string all, Decode(encoded, DecodedSize::Exactly(size)));
  internal::SpanCollector collector(spans);
  collector.Take(0, all);
  return std::move(collector).Finish();
}

}  // namespace kerchunk::codecs
