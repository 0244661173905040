// What verify knows and checks about zarr metadata: the .zarray rules beyond what
// ZarrArrayMeta::Parse checks (dtype and fill value, codecs numcodecs accepts), the catalog of
// arrays the other checks build on, and the pieces the metadata checks share.
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "kerchunk/codecs/pipeline.h"
#include "kerchunk/json/json_value.h"
#include "kerchunk/refs/reference_set.h"
#include "kerchunk/refs/zarr_metadata.h"
#include "kerchunk/util/checked_math.h"
#include "kerchunk/util/status.h"
#include "kerchunk/verify/report.h"
#include "refs/zarr_dtype.h"

// The rules a .zarray must follow beyond what ZarrArrayMeta::Parse checks, so that zarr (v2,
// with numpy and numcodecs) opens the array and decodes its chunks: a dtype numpy understands, a
// fill value zarr can decode for it (both checked in refs/zarr_dtype.h), and codecs numcodecs knows
// with their required parameters.
namespace kerchunk::verify::internal {

using kerchunk::internal::CheckFillValue;
using kerchunk::internal::DtypeInfo;
using kerchunk::internal::ParseDtype;

/// True for codec ids numcodecs registers (as of 0.11, plus the checksum codecs of 0.12).
bool IsKnownNumcodecsId(std::string_view id);

/// Checks one codec configuration: an object with a string "id" numcodecs knows, the
/// parameters numcodecs requires for it, and, for codecs this toolkit decodes, valid parameter
/// values (codecs::MakeCodec). `where` names it in messages ("compressor", "filters[1]").
Status CheckCodecConfig(const json::Value& config, std::string_view where);

/// Checks the "compressor" and "filters" of an array: each codec as above; an object dtype
/// ("|O") needs an object codec (json2, vlen-utf8, vlen-bytes, vlen-array, pickle, msgpack2)
/// as its first filter, and other dtypes must not have one.
Status CheckCodecs(const ZarrArrayMeta& meta, const DtypeInfo& dtype);

}  // namespace kerchunk::verify::internal

// What the checks know about each array once its .zarray has been validated: the parsed
// metadata, the codec pipeline and the sizes a chunk must have.
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

// Pieces of the metadata check shared by its files.
namespace kerchunk::verify::internal {

/// Case logs of the metadata check keyed by node path (array or group), in first-use order.
class NodeLogs {
 public:
  explicit NodeLogs(const Report& report) : report_(report) {}
  CaseLog& operator[](std::string_view path);
  void AddTo(Report& report);

 private:
  const Report& report_;
  std::vector<CaseLog> logs_;
  std::unordered_map<std::string, size_t> index_;
};

/// Validates one .zarray entry and describes the array (see ArrayInfo); problems go to `log`.
ArrayInfo AnalyzeZarray(std::string path, const Entry& entry, const ArrayRefs* refs, CaseLog& log);

/// .zattrs, .zgroup and .zmetadata documents, and the groups that hold each array.
void CheckNodes(const ReferenceSet& refs, const Catalog& catalog, NodeLogs& logs);

}  // namespace kerchunk::verify::internal
