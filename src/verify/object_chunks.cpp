#include "verify/object_chunks.h"

#include "kerchunk/json/json_value.h"

namespace kerchunk::verify::internal {
namespace {

using json::Value;

// Counts the items of a nested list of depth `depth` whose lengths must follow `shape`.
Status CountItems(const Value& v, const std::vector<uint64_t>& shape, size_t depth,
                  uint64_t& count) {
  if (depth == shape.size()) {
    ++count;
    return OkStatus();
  }
  if (!v.is_array() || v.as_array().size() != shape[depth]) {
    return DataLossError("json2: expected a list of {} items at depth {}, got {}", shape[depth],
                         depth, v.Dump().substr(0, 60));
  }
  for (const Value& item : v.as_array()) {
    KERCHUNK_RETURN_IF_ERROR(CountItems(item, shape, depth + 1, count));
  }
  return OkStatus();
}

}  // namespace

Status CheckJson2Chunk(const codecs::Pipeline& pipeline, std::string_view stored,
                       uint64_t expected_items) {
  std::string buffer(stored);
  const auto& byte_codecs = pipeline.codecs();
  for (size_t k = byte_codecs.size(); k-- > 0;) {
    KERCHUNK_ASSIGN_OR_RETURN(
        buffer,
        byte_codecs[k]->Decode(buffer, codecs::DecodedSize::AtMost(codecs::kMaxDecodedChunkBytes)));
  }
  Result<Value> doc = Value::Parse(buffer);
  if (!doc.ok()) return DataLossError("json2: {}", doc.status().message());
  const Value::Array& items = doc->as_array();
  if (!doc->is_array() || items.size() < 2 || !items[items.size() - 2].is_string() ||
      !items.back().is_array()) {
    return DataLossError("json2: expected a list ending with the dtype and the shape");
  }
  std::vector<uint64_t> shape;
  for (const Value& n : items.back().as_array()) {
    if (n.type() != Value::Type::kInt || n.as_int() < 0) {
      return DataLossError("json2: expected non-negative integers in the shape, got {}",
                           items.back().Dump());
    }
    shape.push_back(static_cast<uint64_t>(n.as_int()));
  }
  uint64_t count = 0;
  if (shape.empty()) {
    count = items.size() - 2;
  } else {
    Value body = Value::MakeArray(Value::Array(items.begin(), items.end() - 2));
    KERCHUNK_RETURN_IF_ERROR(CountItems(body, shape, 0, count));
  }
  if (count != expected_items) {
    return DataLossError("json2: {} items, expected the chunk's {}", count, expected_items);
  }
  return OkStatus();
}

}  // namespace kerchunk::verify::internal
