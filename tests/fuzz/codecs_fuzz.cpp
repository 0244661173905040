// Fuzz target for the codecs: the first byte picks a codec or pipeline, the next two give the
// expected decoded size, the rest is the stored stream. Decoding must fail cleanly or produce
// exactly the size asked for; it must never crash, hang or read/write out of bounds. The zlib
// codec must also give zlib's own verdict (it checks the header and Adler-32 itself): it must
// not accept a stream that zlib (and so numcodecs, and every Python reader) refuses, nor decode
// it otherwise. This check found that libdeflate, tried in front of zlib, accepts streams zlib
// refuses (regress_invalid_distance_code_libdeflate_accepts).
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "kerchunk/codecs/codec.h"
#include "kerchunk/codecs/fletcher32.h"
#include "kerchunk/codecs/object_codecs.h"
#include "kerchunk/codecs/pipeline.h"
#include "support/zlib_verdict.h"

namespace {

using kerchunk::codecs::ByteSpan;
using kerchunk::codecs::DecodedSize;
using kerchunk::codecs::Pipeline;

constexpr const char* kPipelines[][3] = {
    // {compressor, filters, dtype}
    {R"({"id": "zlib", "level": 1})", "null", "<i4"},
    {R"({"id": "gzip", "level": 1})", "null", "<i4"},
    {R"({"id": "zstd", "level": 1})", "null", "<i4"},
    {R"({"id": "blosc", "cname": "lz4", "clevel": 5, "shuffle": 1})", "null", "<i4"},
    {"null", R"([{"id": "shuffle", "elementsize": 4}, {"id": "zlib", "level": 1}])", "<f4"},
    {R"({"id": "zstd"})", R"([{"id": "delta", "dtype": "<i4"}])", "<i4"},
    {"null",
     R"([{"id": "fixedscaleoffset", "scale": 10, "offset": 5, "dtype": "<f8", "astype": "<i2"}])",
     "<f8"},
    {"null", R"([{"id": "json2"}])", "|O"},
    {R"({"id": "zlib"})", R"([{"id": "vlen-utf8"}])", "|O"},
    {"null", R"([{"id": "vlen-bytes"}])", "|O"},
};
constexpr size_t kCount = sizeof(kPipelines) / sizeof(kPipelines[0]);

const Pipeline& PipelineAt(size_t i) {
  static const auto* pipelines = [] {
    auto* v = new std::vector<Pipeline>;
    for (const auto& p : kPipelines) {
      auto made = Pipeline::FromConfigs(*kerchunk::json::Value::Parse(p[0]),
                                        *kerchunk::json::Value::Parse(p[1]), p[2]);
      if (!made.ok()) std::abort();
      v->push_back(*made);
    }
    return v;
  }();
  return (*pipelines)[i];
}

// The zlib codec, whole and by spans, agrees with zlib's verdict.
void CheckZlibAgreement(std::string_view stream, uint64_t size) {
  static const auto* codec = new std::shared_ptr<const kerchunk::codecs::Codec>(
      *kerchunk::codecs::MakeCodec(*kerchunk::json::Value::Parse(R"({"id": "zlib"})")));
  const std::optional<std::string> verdict = kerchunk::testing::ZlibVerdict(stream, size);
  auto whole = (*codec)->Decode(stream, DecodedSize::Exactly(size));
  if (whole.ok() != verdict.has_value() || (whole.ok() && *whole != *verdict)) std::abort();
  const ByteSpan span{size / 4, size / 3};
  auto gathered = (*codec)->DecodeSpans(stream, size, std::span(&span, 1));
  if (gathered.ok() != verdict.has_value()) std::abort();
  if (gathered.ok() && *gathered != verdict->substr(span.offset, span.length)) std::abort();
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  if (size < 3) return 0;
  size_t which = data[0] % (kCount + 1);
  uint64_t expected = data[1] | uint64_t{data[2]} << 8;
  std::string_view stream(reinterpret_cast<const char*>(data + 3), size - 3);
  if (which == kCount) {
    (void)kerchunk::codecs::VerifyFletcher32(stream);
    return 0;
  }
  if (which == 0) CheckZlibAgreement(stream, expected);
  const Pipeline& p = PipelineAt(which);
  if (p.is_object()) {
    auto r = p.DecodeStrings(stream, expected);
    if (r.ok()) {
      uint64_t count = 1;
      for (uint64_t d : r->shape) count *= d;
      if (count != r->values.size()) std::abort();
    }
    return 0;
  }
  auto r = p.Decode(stream, expected);
  if (r.ok() && r->size() != expected) std::abort();
  // Whatever decodes must encode and decode back to itself.
  if (r.ok() && which != 6) {  // fixedscaleoffset is lossy
    auto again = p.Encode(*r);
    if (!again.ok()) std::abort();
    auto back = p.Decode(*again, expected);
    if (!back.ok() || *back != *r) std::abort();
  }
  return 0;
}
