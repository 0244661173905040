#include "hdf5/dataset_translator_chunks.h"

#include <fmt/format.h>

#include "hdf5/h5_library.h"
#include "kerchunk/hdf5/chunk_index.h"
#include "kerchunk/util/checked_math.h"

namespace kerchunk::hdf5::internal {

Result<StoredChunks> ContiguousChunk(hid_t dataset) {
  StoredChunks out;
  const haddr_t offset = H5Dget_offset(dataset);
  if (offset == HADDR_UNDEF) {
    H5Eclear2(H5E_DEFAULT);
    return out;
  }
  out.chunks.push_back({0, offset, H5Dget_storage_size(dataset)});
  return out;
}

Result<bool> HasStoredData(hid_t dataset, H5D_layout_t layout) {
  if (layout == H5D_CONTIGUOUS) {
    const bool allocated = H5Dget_offset(dataset) != HADDR_UNDEF;
    H5Eclear2(H5E_DEFAULT);
    return allocated;
  }
  return H5Dget_storage_size(dataset) > 0;
}

}  // namespace kerchunk::hdf5::internal
