// Codecs of object arrays (zarr dtype "|O"): numcodecs' json2, vlen-utf8 and vlen-bytes, which
// turn a chunk of variable-length strings into bytes. Kerchunk stores HDF5 variable-length
// strings with these (json2 inline, typically).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kerchunk/json/json_value.h"
#include "kerchunk/util/status.h"

namespace kerchunk::codecs {

/// The decoded items of an object chunk in C order. A missing item (JSON null) is nullopt.
struct StringArray {
  std::vector<std::optional<std::string>> values;
  /// Shape as encoded (json2 stores it; vlen codecs store a flat list: {values.size()}).
  std::vector<uint64_t> shape;

  bool operator==(const StringArray&) const = default;
};

/// Object codec: the first filter of an object array, applied after all byte codecs on decode.
class ObjectCodec {
 public:
  virtual ~ObjectCodec() = default;
  virtual std::string_view id() const = 0;
  /// Decodes the items. DataLoss when the bytes are malformed, when an item is not a string
  /// (or null), or when json2's item count differs from the product of its shape.
  virtual Result<StringArray> Decode(std::string_view encoded) const = 0;
  /// Encodes items as numcodecs does (json2: compact JSON, ASCII-escaped, with dtype "|O" and
  /// the shape appended; vlen: little-endian counts and lengths).
  virtual Result<std::string> Encode(const StringArray& items) const = 0;
  virtual json::Value Config() const = 0;
};

/// True for the ids MakeObjectCodec accepts ("json2", "vlen-utf8", "vlen-bytes").
bool IsObjectCodecId(std::string_view id);

/// Builds an object codec from a numcodecs configuration; Unsupported for other ids. json2
/// options other than the defaults numcodecs writes are accepted but not honoured on encoding.
Result<std::shared_ptr<const ObjectCodec>> MakeObjectCodec(const json::Value& config);

}  // namespace kerchunk::codecs
