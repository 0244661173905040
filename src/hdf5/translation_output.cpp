// The entries both HDF5 translators write; see translation_output.h.
#include "hdf5/translation_output.h"

#include <fmt/format.h>

namespace kerchunk::hdf5::internal {
namespace {

std::string MetaKey(const std::string& path, std::string_view name) {
  return path.empty() ? std::string(name) : fmt::format("{}/{}", path, name);
}

// Appends a metadata entry without ReferenceSet::SetText's linear duplicate search, which is
// quadratic over a file with thousands of variables.
void AddText(ReferenceSet& refs, std::string key, std::string text) {
  refs.entries.push_back(Entry{std::move(key), EntryValue::Text(std::move(text))});
}

}  // namespace

ZarrArrayMeta BaseArrayMeta(const std::vector<uint64_t>& shape, const std::vector<uint64_t>& chunks,
                            const NumpyType& type) {
  ZarrArrayMeta meta;
  meta.shape = shape;
  meta.chunks = chunks;
  meta.dtype = type.dtype;
  meta.dtype_json = type.dtype_json;  // the list of a structured dtype, else null
  meta.compressor = json::Value::Null();
  meta.filters = json::Value::Null();
  meta.fill_value = json::Value::Null();
  return meta;
}

ArrayRefs& AddArrayEntries(FileScanResult& result, const std::string& path,
                           const ZarrArrayMeta& meta, ChunkGrid grid,
                           const AttributeSet& attributes, json::Value dims) {
  json::Value attrs = attributes.attrs;
  attrs.Set("_ARRAY_DIMENSIONS", std::move(dims));
  for (const std::string& s : attributes.skipped) {
    result.warnings.push_back(fmt::format("dataset /{}: {} left out", path, s));
  }
  AddText(result.refs, MetaKey(path, ".zarray"), meta.ToJson().Dump());
  AddText(result.refs, MetaKey(path, ".zattrs"), attrs.Dump());
  return result.refs.AddArray(path, std::move(grid));
}

void AddGroupEntries(FileScanResult& result, const std::string& path,
                     const AttributeSet& attributes) {
  AddText(result.refs, MetaKey(path, ".zgroup"), R"({"zarr_format":2})");
  for (const std::string& s : attributes.skipped) {
    result.warnings.push_back(fmt::format("group /{}: {} left out", path, s));
  }
  if (!attributes.attrs.as_object().empty()) {
    AddText(result.refs, MetaKey(path, ".zattrs"), attributes.attrs.Dump());
  }
}

std::optional<Status> RefuseOrSkip(const FileScanOptions& options, FileScanResult& result,
                                   const std::string& path, const std::string& reason) {
  switch (options.on_unsupported) {
    case OnUnsupported::kError:
      return UnsupportedError("dataset /{}: {}", path, reason);
    case OnUnsupported::kSkip:
      result.warnings.push_back(fmt::format("dataset /{} skipped: {}", path, reason));
      return OkStatus();
    case OnUnsupported::kInline:
      break;
  }
  return std::nullopt;
}

}  // namespace kerchunk::hdf5::internal
