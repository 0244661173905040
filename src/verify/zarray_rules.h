// The rules a .zarray must follow beyond what ZarrArrayMeta::Parse checks, so that zarr (v2,
// with numpy and numcodecs) opens the array and decodes its chunks: a dtype numpy understands, a
// fill value zarr can decode for it, and codecs numcodecs knows with their required parameters.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "kerchunk/json/json_value.h"
#include "kerchunk/refs/zarr_metadata.h"
#include "kerchunk/util/status.h"

namespace kerchunk::verify::internal {

/// A dtype as numpy reads it: a simple type ("<f4", "|S12", "<M8[ns]", "|O") or a record (a
/// list of [name, dtype] or [name, dtype, shape] fields, itemsize the packed sum).
struct DtypeInfo {
  char order = '|';       ///< '<', '>', '|' or '='; '|' for records
  char kind = 'V';        ///< numpy kind: b i u f c m M S U V O; 'V' for records
  uint64_t itemsize = 0;  ///< bytes per element (0 for "|O")
  bool record = false;
};

/// Parses and checks a dtype as zarr v2 writes it (a string or a record list). InvalidArgument
/// saying what is wrong, e.g. "dtype \"<f3\": a float has 2, 4, 8 or 16 bytes".
Result<DtypeInfo> ParseDtype(const json::Value& dtype);

/// Checks that zarr 2 can decode `fill_value` for the dtype (zarr's decode_fill_value): null
/// always; floats a number or "NaN"/"Infinity"/"-Infinity"; integers an integer in range;
/// booleans a boolean or number; complex a [re, im] pair; bytes ("S") anything (zarr is lenient);
/// void and records a base64 string; "U" a string; datetimes a number or string; objects any.
Status CheckFillValue(const json::Value& fill_value, const DtypeInfo& dtype);

/// True for codec ids numcodecs registers (as of 0.11, plus the checksum codecs of 0.12).
bool IsKnownNumcodecsId(std::string_view id);

/// Checks one codec configuration: an object with a string "id" numcodecs knows, the
/// parameters numcodecs requires for it, and, for codecs this toolkit decodes, valid parameter
/// values (codecs::MakeCodec). `where` names it in messages ("compressor", "filters[1]").
Status CheckCodecConfig(const json::Value& config, std::string_view where);

/// Checks the "compressor" and "filters" of an array: each codec as above; an object dtype
/// ("|O") needs an object codec (json2, vlen-utf8, vlen-bytes, vlen-array, pickle, msgpack2)
/// as its first filter, and other dtypes must not have one.
Status CheckCodecs(const ZarrArrayMeta& meta, const DtypeInfo& dtype);

}  // namespace kerchunk::verify::internal
