// The rules a .zarray must follow beyond what ZarrArrayMeta::Parse checks, so that zarr (v2,
// with numpy and numcodecs) opens the array and decodes its chunks: a dtype numpy understands, a
// fill value zarr can decode for it (both checked in refs/zarr_dtype.h), and codecs numcodecs knows
// with their required parameters.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "kerchunk/json/json_value.h"
#include "kerchunk/refs/zarr_metadata.h"
#include "kerchunk/util/status.h"
#include "refs/zarr_dtype.h"

namespace kerchunk::verify::internal {

using kerchunk::internal::CheckFillValue;
using kerchunk::internal::DtypeInfo;
using kerchunk::internal::ParseDtype;

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
