// What both HDF5 translators (native_translator.cpp and the libhdf5 oracle,
// dataset_translator.cpp) write for a group or a dataset once they have read it: the metadata
// keys, the base .zarray and the warnings about attributes left out, so that the two cannot
// drift apart in what they emit. Internal to the HDF5 translator.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "hdf5/attribute_set.h"
#include "hdf5/numpy_type.h"
#include "kerchunk/formats/format_scanner.h"
#include "kerchunk/json/json_value.h"
#include "kerchunk/refs/zarr_metadata.h"

namespace kerchunk::hdf5::internal {

/// A dataset's .zarray before filters and fill value: shape, chunks, dtype (a structured
/// dtype's list as written), no compressor, no filters, fill_value null.
ZarrArrayMeta BaseArrayMeta(const std::vector<uint64_t>& shape, const std::vector<uint64_t>& chunks,
                            const NumpyType& type);

/// Adds "<path>/.zarray", "<path>/.zattrs" (the attributes and _ARRAY_DIMENSIONS = `dims`) and
/// the array's (empty) chunk column with `grid` (meta.Grid(), checked by the caller first);
/// warns about each attribute left out. Keys are unique by construction (each object is
/// visited once), so no duplicate search is made.
ArrayRefs& AddArrayEntries(FileScanResult& result, const std::string& path,
                           const ZarrArrayMeta& meta, ChunkGrid grid,
                           const AttributeSet& attributes, json::Value dims);

/// Adds "<path>/.zgroup" ("" = root) and, when the group has attributes, its .zattrs; warns
/// about each attribute left out.
void AddGroupEntries(FileScanResult& result, const std::string& path,
                     const AttributeSet& attributes);

/// OnUnsupported for dataset `path`, which zarr cannot read for `reason`: under kError the
/// Unsupported error naming it, under kSkip OK after a warning; nullopt under kInline, whose
/// decoding is the caller's.
std::optional<Status> RefuseOrSkip(const FileScanOptions& options, FileScanResult& result,
                                   const std::string& path, const std::string& reason);

}  // namespace kerchunk::hdf5::internal
