// numcodecs' object codecs: "json2" (JSON list of the items, then the dtype string and shape)
// and "vlen-utf8"/"vlen-bytes" (little-endian item count, then length-prefixed items).
#include "kerchunk/codecs/object_codecs.h"

#include <algorithm>

#include "kerchunk/json/json_value.h"
#include "kerchunk/util/byte_reader.h"
#include "kerchunk/util/checked_math.h"

namespace kerchunk::codecs {
namespace {

using json::Value;

// Appends the leaves of `v`, a nest of lists `shape.size() - depth` deep, checking each level's
// length against the shape.
Status FlattenItems(const Value& v, const std::vector<uint64_t>& shape, size_t depth,
                    StringArray& out) {
  if (depth == shape.size()) {
    if (v.is_null()) {
      out.values.emplace_back(std::nullopt);
    } else if (v.is_string()) {
      out.values.emplace_back(v.as_string());
    } else {
      return DataLossError("json2: item {} is {}, expected a string or null", out.values.size(),
                           v.Dump().substr(0, 40));
    }
    return OkStatus();
  }
  if (!v.is_array() || v.as_array().size() != shape[depth]) {
    return DataLossError("json2: expected a list of {} items at depth {}, got {}", shape[depth],
                         depth, v.Dump().substr(0, 40));
  }
  for (const Value& item : v.as_array()) {
    KERCHUNK_RETURN_IF_ERROR(FlattenItems(item, shape, depth + 1, out));
  }
  return OkStatus();
}

Result<std::vector<uint64_t>> ParseShape(const Value& v) {
  if (!v.is_array()) return DataLossError("json2: expected the shape list last, got {}", v.Dump());
  std::vector<uint64_t> shape;
  uint64_t count = 1;
  for (const Value& d : v.as_array()) {
    if (d.type() != Value::Type::kInt || d.as_int() < 0) {
      return DataLossError("json2: expected non-negative integers in the shape, got {}", v.Dump());
    }
    auto next = CheckedMul(count, static_cast<uint64_t>(d.as_int()));
    if (!next) return DataLossError("json2: shape {} overflows", v.Dump());
    count = *next;
    shape.push_back(static_cast<uint64_t>(d.as_int()));
  }
  return shape;
}

void AppendNested(const StringArray& items, size_t depth, uint64_t& next, std::string& out) {
  if (depth == items.shape.size()) {
    const auto& item = items.values[next++];
    if (item) {
      json::AppendString(out, *item);
    } else {
      out += "null";
    }
    return;
  }
  out += '[';
  for (uint64_t i = 0; i < items.shape[depth]; ++i) {
    if (i) out += ',';
    AppendNested(items, depth + 1, next, out);
  }
  out += ']';
}

class Json2Codec final : public ObjectCodec {
 public:
  std::string_view id() const override { return "json2"; }

  Result<StringArray> Decode(std::string_view encoded) const override {
    auto parsed = Value::Parse(encoded);
    if (!parsed.ok()) return DataLossError("json2: {}", parsed.status().message());
    Value doc = std::move(parsed).value();
    if (!doc.is_array() || doc.as_array().size() < 2) {
      return DataLossError("json2: expected a list ending with dtype and shape");
    }
    const auto& list = doc.as_array();
    StringArray out;
    KERCHUNK_ASSIGN_OR_RETURN(out.shape, ParseShape(list.back()));
    if (!list[list.size() - 2].is_string()) {
      return DataLossError("json2: expected the dtype string before the shape");
    }
    // The items are the list minus its last two entries: one nest of lists per shape.
    Value items = Value::MakeArray(Value::Array(list.begin(), list.end() - 2));
    if (out.shape.empty()) {
      if (items.as_array().size() != 1) {
        return DataLossError("json2: expected 1 item for shape [], got {}",
                             items.as_array().size());
      }
      KERCHUNK_RETURN_IF_ERROR(FlattenItems(items.as_array()[0], out.shape, 0, out));
      return out;
    }
    KERCHUNK_RETURN_IF_ERROR(FlattenItems(items, out.shape, 0, out));
    return out;
  }

  Result<std::string> Encode(const StringArray& items) const override {
    uint64_t count = 1;
    for (uint64_t d : items.shape) count *= d;
    if (count != items.values.size() || items.shape.empty()) {
      return InvalidArgumentError("json2: {} items do not fill a non-scalar shape of {}",
                                  items.values.size(), count);
    }
    for (const auto& v : items.values) {
      if (v && !json::IsValidUtf8(*v)) {
        return InvalidArgumentError("json2: an item is not valid UTF-8");
      }
    }
    std::string out;
    uint64_t next = 0;
    AppendNested(items, 0, next, out);
    out.pop_back();  // the items, then dtype and shape, are one flat list
    out += ",\"|O\",[";
    for (size_t d = 0; d < items.shape.size(); ++d) {
      if (d) out += ',';
      out += std::to_string(items.shape[d]);
    }
    out += "]]";
    return out;
  }

  json::Value Config() const override {
    Value c = Value::MakeObject();
    c.Set("id", Value::String("json2"));
    c.Set("allow_nan", Value::Bool(true));
    c.Set("check_circular", Value::Bool(true));
    c.Set("encoding", Value::String("utf-8"));
    c.Set("ensure_ascii", Value::Bool(true));
    c.Set("indent", Value::Null());
    Value separators = Value::MakeArray({Value::String(","), Value::String(":")});
    c.Set("separators", separators);
    c.Set("skipkeys", Value::Bool(false));
    c.Set("sort_keys", Value::Bool(true));
    c.Set("strict", Value::Bool(true));
    return c;
  }
};

class VlenCodec final : public ObjectCodec {
 public:
  explicit VlenCodec(bool utf8) : utf8_(utf8) {}
  std::string_view id() const override { return utf8_ ? "vlen-utf8" : "vlen-bytes"; }

  Result<StringArray> Decode(std::string_view encoded) const override {
    ByteReader r(std::as_bytes(std::span(encoded.data(), encoded.size())), 0, id());
    KERCHUNK_ASSIGN_OR_RETURN(uint32_t n, r.U32("item count"));
    StringArray out;
    out.shape = {n};
    // Each item needs at least its 4-byte length, which bounds the reservation.
    out.values.reserve(std::min<uint64_t>(n, r.remaining() / 4));
    for (uint32_t i = 0; i < n; ++i) {
      KERCHUNK_ASSIGN_OR_RETURN(uint32_t length, r.U32("item length"));
      KERCHUNK_ASSIGN_OR_RETURN(std::string_view item, r.Chars(length, "item"));
      if (utf8_ && !json::IsValidUtf8(item)) {
        return DataLossError("{}: item {} is not valid UTF-8", id(), i);
      }
      out.values.emplace_back(std::string(item));
    }
    return out;
  }

  Result<std::string> Encode(const StringArray& items) const override {
    std::string out;
    auto put32 = [&](uint64_t v) {
      for (int k = 0; k < 4; ++k) out += static_cast<char>((v >> (8 * k)) & 0xFF);
    };
    if (items.values.size() > UINT32_MAX) return InvalidArgumentError("{}: too many items", id());
    put32(items.values.size());
    for (const auto& v : items.values) {
      // numcodecs writes None as an empty item.
      std::string_view s = v ? std::string_view(*v) : std::string_view();
      if (s.size() > UINT32_MAX) return InvalidArgumentError("{}: item over 4 GiB", id());
      put32(s.size());
      out += s;
    }
    return out;
  }

  json::Value Config() const override {
    Value c = Value::MakeObject();
    c.Set("id", Value::String(std::string(id())));
    return c;
  }

 private:
  bool utf8_;
};

}  // namespace

bool IsObjectCodecId(std::string_view id) {
  return id == "json2" || id == "vlen-utf8" || id == "vlen-bytes";
}

Result<std::shared_ptr<const ObjectCodec>> MakeObjectCodec(const json::Value& config) {
  const Value* id = config.is_object() ? config.Find("id") : nullptr;
  if (!id || !id->is_string()) {
    return InvalidArgumentError("codec configuration without a string \"id\": {}", config.Dump());
  }
  if (id->as_string() == "json2") return std::shared_ptr<const ObjectCodec>(new Json2Codec());
  if (id->as_string() == "vlen-utf8")
    return std::shared_ptr<const ObjectCodec>(new VlenCodec(true));
  if (id->as_string() == "vlen-bytes") {
    return std::shared_ptr<const ObjectCodec>(new VlenCodec(false));
  }
  return UnsupportedError("unsupported object codec \"{}\"", id->as_string());
}

}  // namespace kerchunk::codecs
