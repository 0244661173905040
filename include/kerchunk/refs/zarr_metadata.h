// Zarr v2 array metadata (.zarray): parsing, writing, and fill values encoded as zarr does.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kerchunk/json/json_value.h"
#include "kerchunk/refs/chunk_grid.h"
#include "kerchunk/util/status.h"

namespace kerchunk {

/// The fields of a .zarray document. Unknown extra fields are kept in `extra` so rewriting a
/// document does not lose them.
struct ZarrArrayMeta {
  std::vector<uint64_t> shape;
  std::vector<uint64_t> chunks;
  std::string dtype;  ///< numpy dtype string, e.g. "<f4", "|S1", "|O"; or JSON of a record dtype
  json::Value dtype_json;  ///< the dtype as written (a string, or a list for record dtypes)
  json::Value fill_value;  ///< as zarr encodes it (null, number, "NaN", base64 for bytes, ...)
  json::Value compressor;  ///< null or a numcodecs config object
  json::Value filters;     ///< null or an array of numcodecs config objects
  char order = 'C';
  std::optional<char> dimension_separator;
  json::Value extra = json::Value::MakeObject();

  /// Parses and validates (zarr_format 2, integer shape/chunks of equal rank, order C or F).
  static Result<ZarrArrayMeta> Parse(std::string_view zarray_json);
  json::Value ToJson() const;
  /// Compact JSON with sorted keys, as Python kerchunk writes it.
  std::string Dump() const { return ToJson().Dump(); }
  Result<ChunkGrid> Grid() const;

  /// Item size in bytes of the dtype ("<f8" -> 8, "|S12" -> 12, a record dtype: the sum of its
  /// fields); nullopt for object dtypes and dtypes numpy would not read.
  std::optional<uint64_t> ItemSize() const;
};

/// Item size of a numpy dtype string such as "<i4", "|S7", "<U3" (4 bytes a character), "|b1".
std::optional<uint64_t> DtypeItemSize(std::string_view dtype);

/// Encodes a fill value given as raw bytes in the dtype's own byte order, as zarr v2 does:
/// floats as numbers or "NaN"/"Infinity"/"-Infinity", integers as integers, bools as booleans,
/// bytes ("S", "V") as base64, complex as [re, im]. Unknown kinds give base64 of the bytes.
json::Value EncodeFillValue(std::string_view raw, std::string_view dtype);

}  // namespace kerchunk
