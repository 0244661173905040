// An HDF5 filter pipeline in numcodecs form, as Python kerchunk writes it in .zarray "filters",
// or the reason no zarr reader could decode the stored chunks. Shared by the native reader's
// translator and the libhdf5 one. Internal to the HDF5 translator.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "kerchunk/hdf5/filter_pipeline.h"
#include "kerchunk/json/json_value.h"

namespace kerchunk::hdf5::internal {

/// The zarr view of a dataset's filter pipeline.
struct FilterPipeline {
  /// numcodecs configs in pipeline order (zarr applies them in reverse to decode); an empty
  /// array when the dataset has no filters that change the bytes.
  json::Value filters = json::Value::MakeArray();
  /// Fletcher32 is the last filter: each stored chunk ends with a 4-byte checksum that the
  /// references leave out.
  bool fletcher32 = false;
  /// Number of filters in the HDF5 pipeline (for interpreting chunk filter masks).
  unsigned count = 0;
  /// Non-empty when a filter has no numcodecs equivalent, e.g. "filter szip (id 4) has no
  /// numcodecs equivalent".
  std::string unsupported_reason;
};

/// Maps the filters (in pipeline order) of a dataset whose elements are `element_size` bytes
/// (shuffle's element size, as kerchunk takes it from the dtype).
FilterPipeline MapFilters(const std::vector<FilterDescription>& filters, size_t element_size);

/// Name of a filter id for messages ("deflate", "szip", "lz4", ... or "unknown").
std::string FilterName(int id);

}  // namespace kerchunk::hdf5::internal
