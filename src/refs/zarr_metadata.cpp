#include "kerchunk/refs/zarr_metadata.h"

#include <charconv>
#include <cmath>
#include <cstring>

#include "kerchunk/util/base64.h"
#include "kerchunk/util/byte_reader.h"

namespace kerchunk {
namespace {

Result<std::vector<uint64_t>> ReadDims(const json::Value& doc, std::string_view name) {
  const json::Value* v = doc.Find(name);
  if (!v || !v->is_array()) {
    return InvalidArgumentError(".zarray: expected \"{}\" to be an array of integers", name);
  }
  std::vector<uint64_t> out;
  for (const auto& x : v->as_array()) {
    if (x.type() == json::Value::Type::kInt && x.as_int() >= 0) {
      out.push_back(static_cast<uint64_t>(x.as_int()));
    } else if (x.type() == json::Value::Type::kUint) {
      out.push_back(x.as_uint());
    } else {
      return InvalidArgumentError(".zarray: expected \"{}\" to hold non-negative integers, got {}",
                                  name, x.Dump());
    }
  }
  return out;
}

template <typename T>
T LoadAs(std::string_view raw, bool big_endian) {
  T v{};
  std::memcpy(&v, raw.data(), sizeof(T));
  if (big_endian != (std::endian::native == std::endian::big)) {
    if constexpr (sizeof(T) == 2) v = std::bit_cast<T>(ByteSwap(std::bit_cast<uint16_t>(v)));
    if constexpr (sizeof(T) == 4) v = std::bit_cast<T>(ByteSwap(std::bit_cast<uint32_t>(v)));
    if constexpr (sizeof(T) == 8) v = std::bit_cast<T>(ByteSwap(std::bit_cast<uint64_t>(v)));
  }
  return v;
}

json::Value EncodeFloat(double d) {
  if (std::isnan(d)) return json::Value::String("NaN");
  if (std::isinf(d)) return json::Value::String(d > 0 ? "Infinity" : "-Infinity");
  return json::Value::Double(d);
}

// IEEE half precision to double.
double HalfToDouble(uint16_t h) {
  int sign = h >> 15, exp = (h >> 10) & 0x1F, frac = h & 0x3FF;
  double v;
  if (exp == 0) {
    v = std::ldexp(frac, -24);
  } else if (exp == 31) {
    v = frac ? NAN : INFINITY;
  } else {
    v = std::ldexp(frac + 1024, exp - 25);
  }
  return sign ? -v : v;
}

}  // namespace

std::optional<uint64_t> DtypeItemSize(std::string_view dtype) {
  if (dtype.size() < 3) return std::nullopt;
  char kind = dtype[1];
  uint64_t n = 0;
  auto [p, ec] = std::from_chars(dtype.data() + 2, dtype.data() + dtype.size(), n);
  if (ec != std::errc() || p != dtype.data() + dtype.size()) return std::nullopt;
  if (kind == 'U') return n * 4;
  if (kind == 'O') return std::nullopt;
  return n;
}

Result<ZarrArrayMeta> ZarrArrayMeta::Parse(std::string_view zarray_json) {
  KERCHUNK_ASSIGN_OR_RETURN(json::Value doc, json::Value::Parse(zarray_json));
  if (!doc.is_object()) return InvalidArgumentError(".zarray: expected a JSON object");
  ZarrArrayMeta m;
  const json::Value* fmt = doc.Find("zarr_format");
  if (!fmt || !fmt->is_number() || fmt->as_double() != 2) {
    return InvalidArgumentError(".zarray: expected \"zarr_format\": 2");
  }
  KERCHUNK_ASSIGN_OR_RETURN(m.shape, ReadDims(doc, "shape"));
  KERCHUNK_ASSIGN_OR_RETURN(m.chunks, ReadDims(doc, "chunks"));
  if (m.shape.size() != m.chunks.size()) {
    return InvalidArgumentError(".zarray: shape has rank {} but chunks has rank {}", m.shape.size(),
                                m.chunks.size());
  }
  for (size_t d = 0; d < m.chunks.size(); ++d) {
    if (m.chunks[d] == 0) return InvalidArgumentError(".zarray: chunks[{}] is 0", d);
  }
  const json::Value* dtype = doc.Find("dtype");
  if (!dtype || !(dtype->is_string() || dtype->is_array())) {
    return InvalidArgumentError(".zarray: expected \"dtype\" to be a string or a list");
  }
  m.dtype_json = *dtype;
  m.dtype = dtype->is_string() ? dtype->as_string() : dtype->Dump();
  if (const json::Value* f = doc.Find("fill_value")) m.fill_value = *f;
  if (const json::Value* c = doc.Find("compressor")) m.compressor = *c;
  if (const json::Value* f = doc.Find("filters")) m.filters = *f;
  if (!m.compressor.is_null() && !m.compressor.is_object()) {
    return InvalidArgumentError(".zarray: expected \"compressor\" to be null or an object");
  }
  if (!m.filters.is_null() && !m.filters.is_array()) {
    return InvalidArgumentError(".zarray: expected \"filters\" to be null or a list");
  }
  if (const json::Value* o = doc.Find("order")) {
    if (!o->is_string() || (o->as_string() != "C" && o->as_string() != "F")) {
      return InvalidArgumentError(".zarray: expected \"order\" to be \"C\" or \"F\"");
    }
    m.order = o->as_string()[0];
  }
  if (const json::Value* s = doc.Find("dimension_separator")) {
    if (!s->is_string() || (s->as_string() != "." && s->as_string() != "/")) {
      return InvalidArgumentError(".zarray: expected \"dimension_separator\" to be \".\" or \"/\"");
    }
    m.dimension_separator = s->as_string()[0];
  }
  for (const auto& [k, v] : doc.as_object()) {
    if (k != "zarr_format" && k != "shape" && k != "chunks" && k != "dtype" && k != "fill_value" &&
        k != "compressor" && k != "filters" && k != "order" && k != "dimension_separator") {
      m.extra.Set(k, v);
    }
  }
  return m;
}

json::Value ZarrArrayMeta::ToJson() const {
  json::Value doc = extra.is_object() ? extra : json::Value::MakeObject();
  auto dims = [](const std::vector<uint64_t>& v) {
    json::Value a = json::Value::MakeArray();
    for (uint64_t x : v) a.Push(json::Value::Uint(x));
    return a;
  };
  doc.Set("chunks", dims(chunks));
  doc.Set("compressor", compressor);
  doc.Set("dtype", dtype_json.is_null() ? json::Value::String(dtype) : dtype_json);
  doc.Set("fill_value", fill_value);
  doc.Set("filters", filters);
  doc.Set("order", json::Value::String(std::string(1, order)));
  doc.Set("shape", dims(shape));
  doc.Set("zarr_format", json::Value::Int(2));
  if (dimension_separator) {
    doc.Set("dimension_separator", json::Value::String(std::string(1, *dimension_separator)));
  }
  return doc;
}

Result<ChunkGrid> ZarrArrayMeta::Grid() const {
  return ChunkGrid::Make(shape, chunks, dimension_separator.value_or('.'));
}

std::optional<uint64_t> ZarrArrayMeta::ItemSize() const {
  if (!dtype_json.is_null() && !dtype_json.is_string()) return std::nullopt;
  return DtypeItemSize(dtype);
}

json::Value EncodeFillValue(std::string_view raw, std::string_view dtype) {
  if (dtype.size() < 3) return json::Value::String(Base64Encode(raw));
  bool big = dtype[0] == '>';
  char kind = dtype[1];
  auto size = DtypeItemSize(dtype);
  if (!size || raw.size() < *size) return json::Value::String(Base64Encode(raw));
  switch (kind) {
    case 'f':
      if (*size == 2) return EncodeFloat(HalfToDouble(LoadAs<uint16_t>(raw, big)));
      if (*size == 4) return EncodeFloat(LoadAs<float>(raw, big));
      if (*size == 8) return EncodeFloat(LoadAs<double>(raw, big));
      break;
    case 'c':
      if (*size == 8) {
        return json::Value::MakeArray(
            {EncodeFloat(LoadAs<float>(raw, big)), EncodeFloat(LoadAs<float>(raw.substr(4), big))});
      }
      if (*size == 16) {
        return json::Value::MakeArray({EncodeFloat(LoadAs<double>(raw, big)),
                                       EncodeFloat(LoadAs<double>(raw.substr(8), big))});
      }
      break;
    case 'i':
    case 'm':
    case 'M':
      if (*size == 1) return json::Value::Int(static_cast<int8_t>(raw[0]));
      if (*size == 2) return json::Value::Int(LoadAs<int16_t>(raw, big));
      if (*size == 4) return json::Value::Int(LoadAs<int32_t>(raw, big));
      if (*size == 8) return json::Value::Int(LoadAs<int64_t>(raw, big));
      break;
    case 'u':
      if (*size == 1) return json::Value::Int(static_cast<uint8_t>(raw[0]));
      if (*size == 2) return json::Value::Int(LoadAs<uint16_t>(raw, big));
      if (*size == 4) return json::Value::Int(LoadAs<uint32_t>(raw, big));
      if (*size == 8) return json::Value::Uint(LoadAs<uint64_t>(raw, big));
      break;
    case 'b':
      return json::Value::Bool(raw[0] != 0);
    default:
      break;
  }
  return json::Value::String(Base64Encode(raw.substr(0, *size)));
}

}  // namespace kerchunk
