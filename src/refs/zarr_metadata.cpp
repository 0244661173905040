// The .zarray document of a zarr v2 array, read and written by the same code, and the chunk grid
// it defines (chunk keys <-> linear chunk indexes). dtype strings: zarr_dtype.cpp.
#include "kerchunk/refs/zarr_metadata.h"

#include <charconv>

#include "kerchunk/refs/chunk_grid.h"
#include "kerchunk/util/checked_math.h"
#include "refs/zarr_dtype.h"

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

}  // namespace

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
  if (!dtype_json.is_null() && !dtype_json.is_string()) {
    // A record dtype: numpy packs its fields, so the item size is their sum.
    auto parsed = internal::ParseDtype(dtype_json);
    if (!parsed.ok()) return std::nullopt;
    return parsed->itemsize;
  }
  return DtypeItemSize(dtype);
}

// The chunk grid.

Result<ChunkGrid> ChunkGrid::Make(std::vector<uint64_t> shape, std::vector<uint64_t> chunks,
                                  char separator) {
  if (shape.size() != chunks.size()) {
    return InvalidArgumentError("chunk rank {} does not match shape rank {}", chunks.size(),
                                shape.size());
  }
  if (separator != '.' && separator != '/') {
    return InvalidArgumentError("dimension separator must be '.' or '/', got '{}'", separator);
  }
  ChunkGrid g;
  g.separator_ = separator;
  g.counts_.resize(shape.size());
  g.strides_.resize(shape.size());
  uint64_t total = 1;
  for (size_t d = 0; d < shape.size(); ++d) {
    if (chunks[d] == 0) return InvalidArgumentError("chunk extent of dimension {} is 0", d);
    g.counts_[d] = CeilDiv(shape[d], chunks[d]);
  }
  for (size_t d = shape.size(); d-- > 0;) {
    g.strides_[d] = total;
    auto next = CheckedMul(total, g.counts_[d]);
    if (!next) return InvalidArgumentError("the chunk grid has more than 2^64 chunks");
    total = *next;
  }
  g.num_chunks_ = total;
  g.shape_ = std::move(shape);
  g.chunks_ = std::move(chunks);
  return g;
}

Result<ChunkGrid> ChunkGrid::FromZarray(std::string_view zarray_json) {
  // Only the grid's fields are read, so a .zarray that ZarrArrayMeta::Parse rejects for another
  // field (no zarr_format, an unknown order) still gives its keys as chunks.
  KERCHUNK_ASSIGN_OR_RETURN(json::Value doc, json::Value::Parse(zarray_json));
  if (!doc.is_object()) return InvalidArgumentError(".zarray: expected a JSON object");
  KERCHUNK_ASSIGN_OR_RETURN(std::vector<uint64_t> shape, ReadDims(doc, "shape"));
  KERCHUNK_ASSIGN_OR_RETURN(std::vector<uint64_t> chunks, ReadDims(doc, "chunks"));
  char sep = '.';
  if (const json::Value* s = doc.Find("dimension_separator"); s && s->is_string()) {
    if (s->as_string().size() != 1) {
      return InvalidArgumentError(".zarray: dimension_separator must be \".\" or \"/\"");
    }
    sep = s->as_string()[0];
  }
  return Make(std::move(shape), std::move(chunks), sep).Annotate(".zarray");
}

uint64_t ChunkGrid::Linear(std::span<const uint64_t> coords) const {
  uint64_t linear = 0;
  for (size_t d = 0; d < coords.size(); ++d) linear += coords[d] * strides_[d];
  return linear;
}

void ChunkGrid::Coords(uint64_t linear, std::span<uint64_t> out) const {
  for (size_t d = 0; d < rank(); ++d) {
    out[d] = linear / strides_[d];
    linear %= strides_[d];
  }
}

void ChunkGrid::AppendKey(uint64_t linear, std::string& out) const {
  if (rank() == 0) {
    out += '0';
    return;
  }
  char buf[24];
  for (size_t d = 0; d < rank(); ++d) {
    uint64_t c = linear / strides_[d];
    linear %= strides_[d];
    if (d) out += separator_;
    auto [end, ec] = std::to_chars(buf, buf + sizeof buf, c);
    out.append(buf, end);
  }
}

std::string ChunkGrid::Key(uint64_t linear) const {
  std::string s;
  AppendKey(linear, s);
  return s;
}

std::optional<uint64_t> ChunkGrid::ParseKey(std::string_view suffix) const {
  if (rank() == 0) {
    if (suffix == "0") return 0;
    return std::nullopt;
  }
  uint64_t linear = 0;
  const char* p = suffix.data();
  const char* end = p + suffix.size();
  for (size_t d = 0; d < rank(); ++d) {
    if (d) {
      if (p == end || *p != separator_) return std::nullopt;
      ++p;
    }
    if (p == end || *p < '0' || *p > '9') return std::nullopt;
    if (*p == '0' && p + 1 != end && p[1] >= '0' && p[1] <= '9') return std::nullopt;
    uint64_t c;
    auto [next, ec] = std::from_chars(p, end, c);
    if (ec != std::errc()) return std::nullopt;
    if (c >= counts_[d]) return std::nullopt;
    linear += c * strides_[d];
    p = next;
  }
  if (p != end) return std::nullopt;
  return linear;
}

}  // namespace kerchunk
