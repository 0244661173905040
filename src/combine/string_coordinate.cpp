#include "combine/string_coordinate.h"

#include <algorithm>
#include <map>

#include "combine/coordinate.h"
#include "combine/dimension_values.h"
#include "kerchunk/codecs/chunk_reader.h"
#include "kerchunk/codecs/pipeline.h"
#include "kerchunk/json/json_value.h"

namespace kerchunk::internal {
namespace {

bool IsStringDtype(std::string_view dtype) {
  return dtype.starts_with("<U") || dtype.starts_with("|S");
}

// One fixed-width item as UTF-8, trailing NULs removed (numpy's reading of "<U" and "|S").
std::string Item(std::string_view bytes, bool unicode) {
  std::string out;
  if (!unicode) {
    out = std::string(bytes);
  } else {
    for (size_t k = 0; k + 4 <= bytes.size(); k += 4) {
      auto b = [&](size_t j) {
        return static_cast<uint32_t>(static_cast<unsigned char>(bytes[k + j]));
      };
      json::AppendUtf8(out, b(0) | b(1) << 8 | b(2) << 16 | b(3) << 24);
    }
  }
  while (!out.empty() && out.back() == '\0') out.pop_back();
  return out;
}

Result<std::vector<std::string>> ReadStrings(const PartView& part, const PartVariable& v,
                                             const UrlToPath& url_to_path) {
  KERCHUNK_ASSIGN_OR_RETURN(
      auto pipeline, codecs::Pipeline::FromZarray(v.meta).Annotate(part.label + ": " + v.path));
  KERCHUNK_ASSIGN_OR_RETURN(uint64_t chunk_bytes, codecs::DecodedChunkSize(v.meta));
  const uint64_t n = v.meta.shape[0], extent = v.meta.chunks[0];
  const uint64_t itemsize = v.meta.ItemSize().value_or(1);
  const bool unicode = v.meta.dtype.starts_with("<U");
  const uint64_t num_chunks = extent == 0 ? 0 : (n + extent - 1) / extent;
  for (uint64_t chunk = 0; chunk < num_chunks; ++chunk) {
    if (!v.refs || !v.refs->Find(chunk)) {
      return DataLossError("{}: coordinate \"{}\": chunk {} is missing", part.label, v.path, chunk);
    }
  }
  KERCHUNK_ASSIGN_OR_RETURN(ChunksOfArray read,
                            ReadChunks(part, v, num_chunks, pipeline, chunk_bytes, url_to_path));
  std::vector<std::string> values;
  for (uint64_t chunk = 0; chunk < num_chunks; ++chunk) {
    std::string_view raw = *read.Decoded(chunk);
    for (uint64_t k = 0; k < std::min(extent, n - chunk * extent); ++k) {
      values.push_back(Item(raw.substr(k * itemsize, itemsize), unicode));
    }
  }
  return values;
}

}  // namespace

bool HasStringCoordinate(const PartView& first, std::string_view dim) {
  const PartVariable* v = first.Find(dim);
  return v && v->meta.shape.size() == 1 && IsStringDtype(v->meta.dtype);
}

Result<ReferenceSet> CombineAlongStringCoordinate(std::vector<ReferenceSet> inputs,
                                                  const CombineOptions& options,
                                                  std::vector<std::string>& warnings) {
  const std::string& dim = options.concat_dim;
  CombineOptions numeric = options;
  // Shard parts of an ensemble are combined with the options of the scan that wrote them: the
  // source that gave the parts their values no longer applies to them.
  if (auto it = numeric.coordinates.find(dim);
      it != numeric.coordinates.end() && it->second.kind != CoordinateSource::Kind::kData) {
    numeric.coordinates.erase(it);
  }
  UrlToPath url_to_path = options.url_to_path ? options.url_to_path : codecs::DefaultUrlToPath;
  std::map<std::string, int64_t, std::less<>> position;
  std::vector<DimensionValue> in_order;
  for (size_t i = 0; i < inputs.size(); ++i) {
    KERCHUNK_ASSIGN_OR_RETURN(PartView part, DescribePart(inputs[i], i));
    const PartVariable* v = part.Find(dim);
    if (!v || v->meta.shape.size() != 1 || !IsStringDtype(v->meta.dtype)) {
      return InvalidArgumentError("{}: coordinate \"{}\": expected strings, as in the first part",
                                  part.label, dim);
    }
    KERCHUNK_ASSIGN_OR_RETURN(std::vector<std::string> strings, ReadStrings(part, *v, url_to_path));
    std::vector<DimensionValue> numbers;
    for (std::string& s : strings) {
      auto [it, added] = position.emplace(s, static_cast<int64_t>(in_order.size()));
      if (added) in_order.push_back(DimensionValue{true, s, {}});
      numbers.push_back(DimensionValue{false, "", CoordinateValue::Int(it->second)});
    }
    KERCHUNK_RETURN_IF_ERROR(SetDimensionCoordinate(inputs[i], dim, numbers));
  }
  KERCHUNK_ASSIGN_OR_RETURN(ReferenceSet out,
                            CombineReferenceSets(std::move(inputs), numeric, &warnings));
  KERCHUNK_RETURN_IF_ERROR(SetDimensionCoordinate(out, dim, in_order));
  return out;
}

}  // namespace kerchunk::internal
