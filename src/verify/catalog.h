// What the checks know about each array once its .zarray has been validated: the parsed
// metadata, the codec pipeline and the sizes a chunk must have.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "kerchunk/codecs/pipeline.h"
#include "kerchunk/refs/reference_set.h"
#include "kerchunk/refs/zarr_metadata.h"
#include "verify/zarray_rules.h"

namespace kerchunk::verify::internal {

struct ArrayInfo {
  std::string path;
  /// The chunk columns; nullptr when the reader could not build the grid (the array's chunk
  /// keys are then plain entries).
  const ArrayRefs* refs = nullptr;
  std::optional<ZarrArrayMeta> meta;  ///< when the .zarray parses
  std::optional<DtypeInfo> dtype;     ///< when the dtype is valid
  std::optional<ChunkGrid> grid;      ///< when shape and chunks make a grid
  /// Every metadata rule holds: the chunks can be checked against the metadata.
  bool valid = false;
  /// Bytes of one decoded chunk (full chunk shape, as zarr v2 stores edge chunks); none for
  /// object dtypes.
  std::optional<uint64_t> decoded_size;
  /// Exact stored bytes of a chunk when no codec changes sizes in a data-dependent way (no
  /// compressor: raw, shuffle, delta, ...). A byte range of any other length is wrong.
  std::optional<uint64_t> stored_size;
  std::shared_ptr<const codecs::Pipeline> pipeline;  ///< when this toolkit can decode the chunks
  std::string pipeline_error;                        ///< why not, when it cannot
};

/// The arrays of a reference set: those with chunk columns in their order, then those whose
/// .zarray gave no grid.
struct Catalog {
  std::vector<ArrayInfo> arrays;
  std::unordered_map<std::string, size_t> by_path;

  const ArrayInfo* Find(std::string_view path) const {
    auto it = by_path.find(std::string(path));
    return it == by_path.end() ? nullptr : &arrays[it->second];
  }
};

/// The text of a metadata entry (JSON in a string, as JSON, or base64 of JSON); nullopt for a
/// byte-range value.
std::optional<std::string_view> MetadataText(const Entry& entry);

/// The kind of metadata document a key names, from its last path component.
enum class MetadataKind { kNone, kZarray, kZattrs, kZgroup, kZmetadata };
MetadataKind KindOfKey(std::string_view key);

/// "a/b" for "a/b/.zattrs", "" for ".zgroup".
std::string_view NodePath(std::string_view key);

}  // namespace kerchunk::verify::internal
