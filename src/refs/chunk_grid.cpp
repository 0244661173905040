#include "kerchunk/refs/chunk_grid.h"

#include <simdjson.h>

#include <charconv>

#include "kerchunk/util/checked_math.h"

namespace kerchunk {

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
  simdjson::dom::parser parser;
  simdjson::padded_string padded(zarray_json);
  simdjson::dom::element doc;
  if (auto err = parser.parse(padded).get(doc)) {
    return InvalidArgumentError(".zarray is not valid JSON: {}", simdjson::error_message(err));
  }
  auto read_dims = [&](const char* name, std::vector<uint64_t>& out) -> Status {
    simdjson::dom::array arr;
    if (doc[name].get_array().get(arr)) {
      return InvalidArgumentError(".zarray: expected \"{}\" to be an array of integers", name);
    }
    for (auto v : arr) {
      uint64_t x;
      if (v.get_uint64().get(x)) {
        return InvalidArgumentError(".zarray: expected \"{}\" to hold non-negative integers", name);
      }
      out.push_back(x);
    }
    return OkStatus();
  };
  std::vector<uint64_t> shape, chunks;
  KERCHUNK_RETURN_IF_ERROR(read_dims("shape", shape));
  KERCHUNK_RETURN_IF_ERROR(read_dims("chunks", chunks));
  char sep = '.';
  std::string_view sep_text;
  if (!doc["dimension_separator"].get_string().get(sep_text)) {
    if (sep_text.size() != 1) {
      return InvalidArgumentError(".zarray: dimension_separator must be \".\" or \"/\"");
    }
    sep = sep_text[0];
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
