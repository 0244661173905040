// Codec configurations as numcodecs' registry (numcodecs/registry.py) would accept them.
#include <fmt/format.h>

#include <map>
#include <set>
#include <vector>

#include "kerchunk/codecs/codec.h"
#include "kerchunk/codecs/object_codecs.h"
#include "verify/zarray_rules.h"

namespace kerchunk::verify::internal {
namespace {

using json::Value;

// The ids of numcodecs 0.11's registry (the version zarr 2.13 ships with here) plus those added
// by 0.12-0.13 (checksums, pcodec), with the constructor parameters that have no default: a
// configuration without them makes numcodecs' get_codec() raise TypeError.
const std::map<std::string_view, std::vector<std::string_view>>& KnownCodecs() {
  static const std::map<std::string_view, std::vector<std::string_view>> kCodecs = {
      {"adler32", {}},
      {"astype", {"encode_dtype", "decode_dtype"}},
      {"base64", {}},
      {"bitround", {"keepbits"}},
      {"blosc", {}},
      {"bz2", {}},
      {"categorize", {"labels", "dtype"}},
      {"crc32", {}},
      {"crc32c", {}},
      {"delta", {"dtype"}},
      {"fixedscaleoffset", {"offset", "scale", "dtype"}},
      {"fletcher32", {}},
      {"gzip", {}},
      {"jenkins_lookup3", {}},
      {"json2", {}},
      {"lz4", {}},
      {"lzma", {}},
      {"msgpack2", {}},
      {"n5_wrapper", {"dtype", "chunk_shape"}},
      {"packbits", {}},
      {"pcodec", {}},
      {"pickle", {}},
      {"quantize", {"digits", "dtype"}},
      {"shuffle", {}},
      {"vlen-array", {"dtype"}},
      {"vlen-bytes", {}},
      {"vlen-utf8", {}},
      {"zfpy", {}},
      {"zlib", {}},
      {"zstd", {}},
  };
  return kCodecs;
}

// Object codecs: turn an array of Python objects into bytes, so one must come first for "|O".
bool IsObjectCodec(std::string_view id) {
  static const std::set<std::string_view> kIds = {"json2",      "vlen-utf8", "vlen-bytes",
                                                  "vlen-array", "pickle",    "msgpack2"};
  return kIds.contains(id);
}

std::string_view CodecId(const Value& config) {
  const Value* id = config.is_object() ? config.Find("id") : nullptr;
  return id && id->is_string() ? std::string_view(id->as_string()) : std::string_view();
}

}  // namespace

bool IsKnownNumcodecsId(std::string_view id) { return KnownCodecs().contains(id); }

Status CheckCodecConfig(const json::Value& config, std::string_view where) {
  if (!config.is_object()) {
    return InvalidArgumentError("{}: expected a codec configuration object, got {}", where,
                                config.Dump());
  }
  const std::string_view id = CodecId(config);
  if (id.empty()) {
    return InvalidArgumentError("{}: expected a string \"id\", got {}", where, config.Dump());
  }
  auto known = KnownCodecs().find(id);
  if (known == KnownCodecs().end()) {
    return InvalidArgumentError("{}: codec id \"{}\" is not known to numcodecs", where, id);
  }
  for (std::string_view param : known->second) {
    if (!config.Find(param)) {
      return InvalidArgumentError("{}: codec \"{}\" requires the parameter \"{}\"", where, id,
                                  param);
    }
  }
  // Codecs this toolkit implements also get their parameter values checked; Unsupported only
  // means numcodecs knows the codec and we do not decode it.
  Status status = codecs::IsObjectCodecId(id) ? codecs::MakeObjectCodec(config).status()
                                              : codecs::MakeCodec(config).status();
  if (status.code() == StatusCode::kInvalidArgument) {
    return InvalidArgumentError("{}: {}", where, status.message());
  }
  return OkStatus();
}

Status CheckCodecs(const ZarrArrayMeta& meta, const DtypeInfo& dtype) {
  if (!meta.compressor.is_null()) {
    KERCHUNK_RETURN_IF_ERROR(CheckCodecConfig(meta.compressor, "compressor"));
  }
  const Value::Array empty;
  const Value::Array& filters = meta.filters.is_array() ? meta.filters.as_array() : empty;
  for (size_t i = 0; i < filters.size(); ++i) {
    KERCHUNK_RETURN_IF_ERROR(CheckCodecConfig(filters[i], fmt::format("filters[{}]", i)));
    if (IsObjectCodec(CodecId(filters[i])) && (dtype.kind != 'O' || i != 0)) {
      return InvalidArgumentError(
          "filters[{}]: object codec \"{}\" is only valid as the first filter of an object "
          "(\"|O\") array; dtype is {}",
          i, CodecId(filters[i]), meta.dtype);
    }
  }
  if (dtype.kind == 'O' && (filters.empty() || !IsObjectCodec(CodecId(filters[0])))) {
    return InvalidArgumentError(
        "dtype \"|O\" needs an object codec (json2, vlen-utf8, vlen-bytes, ...) as the first "
        "filter; zarr refuses the array without one");
  }
  return OkStatus();
}

}  // namespace kerchunk::verify::internal
