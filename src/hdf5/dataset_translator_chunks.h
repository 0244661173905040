// Where a dataset's stored chunks are: the native walker for chunked datasets, libhdf5's
// H5Dget_offset for contiguous ones; and turning them into references (inline below the
// threshold). Internal to the HDF5 translator.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "hdf5/chunk_references.h"
#include "hdf5/dataset_translator.h"
#include "hdf5/h5_api.h"
#include "kerchunk/hdf5/chunk_geometry.h"
#include "kerchunk/hdf5/file.h"
#include "kerchunk/refs/chunk_grid.h"
#include "kerchunk/util/status.h"

namespace kerchunk::hdf5::internal {

/// The one chunk of a contiguous dataset (none when its storage was never allocated).
Result<StoredChunks> ContiguousChunk(hid_t dataset);

/// Whether a contiguous or chunked dataset has any storage allocated (libhdf5's view; used only
/// for variable-length dimension scales, which kerchunk skips when empty).
Result<bool> HasStoredData(hid_t dataset, H5D_layout_t layout);

/// AddChunkReferences with the context's options, file image and result.
inline Status AddChunkReferences(TranslationContext& context, const StoredChunks& stored,
                                 ArrayRefs& array) {
  return AddChunkReferences(*context.options, context.bytes, *context.result, stored, array);
}

}  // namespace kerchunk::hdf5::internal
