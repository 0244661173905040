// The filter pipeline of a chunked dataset in numcodecs form, as Python kerchunk writes it in
// .zarray "filters", or the reason no zarr reader could decode the stored chunks.
// Internal to the HDF5 translator.
#pragma once

#include <cstddef>
#include <string>

#include "hdf5/h5_api.h"
#include "hdf5/zarr_filters.h"
#include "kerchunk/json/json_value.h"
#include "kerchunk/util/status.h"

namespace kerchunk::hdf5::internal {

/// Translates the filters of a dataset creation property list. `element_size` is the dataset's
/// element size in bytes (shuffle's element size, as kerchunk takes it from the dtype).
Result<FilterPipeline> DescribeFilters(hid_t dcpl, size_t element_size);

}  // namespace kerchunk::hdf5::internal
