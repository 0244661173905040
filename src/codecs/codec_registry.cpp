// numcodecs configuration objects -> codecs.
#include <cmath>

#include "codecs/codec_factories.h"

namespace kerchunk::codecs {
namespace internal {

Result<int64_t> IntParam(const json::Value& config, std::string_view codec, std::string_view name,
                         int64_t fallback, int64_t min, int64_t max) {
  const json::Value* v = config.Find(name);
  if (!v || v->is_null()) return fallback;
  int64_t x;
  if (v->type() == json::Value::Type::kInt) {
    x = v->as_int();
  } else if (v->type() == json::Value::Type::kDouble &&
             std::trunc(v->as_double()) == v->as_double() && std::abs(v->as_double()) < 1e15) {
    x = static_cast<int64_t>(v->as_double());
  } else {
    return InvalidArgumentError("{}: expected integer \"{}\", got {}", codec, name, v->Dump());
  }
  if (x < min || x > max) {
    return InvalidArgumentError("{}: expected \"{}\" in [{}, {}], got {}", codec, name, min, max,
                                x);
  }
  return x;
}

Result<std::string> StringParam(const json::Value& config, std::string_view codec,
                                std::string_view name, std::string_view fallback) {
  const json::Value* v = config.Find(name);
  if (!v || v->is_null()) return std::string(fallback);
  if (!v->is_string()) {
    return InvalidArgumentError("{}: expected string \"{}\", got {}", codec, name, v->Dump());
  }
  return v->as_string();
}

Result<double> NumberParam(const json::Value& config, std::string_view codec,
                           std::string_view name) {
  const json::Value* v = config.Find(name);
  if (!v || !v->is_number()) {
    return InvalidArgumentError("{}: expected number \"{}\", got {}", codec, name,
                                v ? v->Dump() : "nothing");
  }
  return v->as_double();
}

Status SizeMismatch(std::string_view codec, DecodedSize size, uint64_t got) {
  if (size.exact) {
    return DataLossError("{}: decoded to {} bytes, expected {}", codec, got, size.bytes);
  }
  return DataLossError("{}: decodes to {} bytes, more than the {} allowed", codec, got, size.bytes);
}

Status CheckDecodedSize(std::string_view codec, DecodedSize size, uint64_t got) {
  if (size.exact ? got != size.bytes : got > size.bytes) return SizeMismatch(codec, size, got);
  return OkStatus();
}

}  // namespace internal

namespace {

using internal::IntParam;
using internal::StringParam;

// numcodecs' default levels: Zlib(level=1), GZip(level=1), Zstd(level=1 in 0.11; 0 = default).
Result<std::shared_ptr<const Codec>> MakeByteCodec(std::string_view id, const json::Value& config,
                                                   const CodecContext& context) {
  if (id == "zlib" || id == "gzip") {
    KERCHUNK_ASSIGN_OR_RETURN(int64_t level, IntParam(config, id, "level", 1, -1, 9));
    return id == "zlib" ? internal::MakeZlib(static_cast<int>(level))
                        : internal::MakeGzip(static_cast<int>(level));
  }
  if (id == "zstd") {
    KERCHUNK_ASSIGN_OR_RETURN(int64_t level, IntParam(config, id, "level", 1, -131072, 22));
    return internal::MakeZstd(static_cast<int>(level));
  }
  if (id == "blosc") {
    KERCHUNK_ASSIGN_OR_RETURN(std::string cname, StringParam(config, id, "cname", "lz4"));
    KERCHUNK_ASSIGN_OR_RETURN(int64_t clevel, IntParam(config, id, "clevel", 5, 0, 9));
    KERCHUNK_ASSIGN_OR_RETURN(int64_t shuffle, IntParam(config, id, "shuffle", 1, -1, 2));
    KERCHUNK_ASSIGN_OR_RETURN(int64_t blocksize,
                              IntParam(config, id, "blocksize", 0, 0, int64_t{1} << 31));
    return internal::MakeBlosc(std::move(cname), static_cast<int>(clevel),
                               static_cast<int>(shuffle), static_cast<uint64_t>(blocksize),
                               context.itemsize);
  }
  if (id == "shuffle") {
    KERCHUNK_ASSIGN_OR_RETURN(int64_t size, IntParam(config, id, "elementsize", 4, 0, 1 << 20));
    return internal::MakeShuffle(static_cast<uint64_t>(size));
  }
  if (id == "delta") {
    KERCHUNK_ASSIGN_OR_RETURN(std::string dtype, StringParam(config, id, "dtype", ""));
    KERCHUNK_ASSIGN_OR_RETURN(std::string astype, StringParam(config, id, "astype", dtype));
    return internal::MakeDelta(dtype, astype);
  }
  if (id == "fixedscaleoffset") {
    KERCHUNK_ASSIGN_OR_RETURN(double scale, internal::NumberParam(config, id, "scale"));
    KERCHUNK_ASSIGN_OR_RETURN(double offset, internal::NumberParam(config, id, "offset"));
    KERCHUNK_ASSIGN_OR_RETURN(std::string dtype, StringParam(config, id, "dtype", ""));
    KERCHUNK_ASSIGN_OR_RETURN(std::string astype, StringParam(config, id, "astype", dtype));
    return internal::MakeFixedScaleOffset(scale, offset, dtype, astype);
  }
  return UnsupportedError("unsupported codec \"{}\"", id);
}

}  // namespace

Result<std::shared_ptr<const Codec>> MakeCodec(const json::Value& config,
                                               const CodecContext& context) {
  if (!config.is_object()) {
    return InvalidArgumentError("expected a codec configuration object, got {}", config.Dump());
  }
  const json::Value* id = config.Find("id");
  if (!id || !id->is_string()) {
    return InvalidArgumentError("codec configuration without a string \"id\": {}", config.Dump());
  }
  return MakeByteCodec(id->as_string(), config, context);
}

}  // namespace kerchunk::codecs
