// A minimal zarr reader for the tests: assembles a whole array from its references by reading
// byte ranges and undoing the zlib and shuffle filters by hand, so the translation can be
// checked against libhdf5's own H5Dread without any codec library (and the check itself).
#pragma once

#include <string>
#include <string_view>

#include "kerchunk/refs/reference_set.h"
#include "kerchunk/refs/zarr_metadata.h"
#include "kerchunk/util/status.h"

namespace kerchunk::testing {

/// The array's bytes in C order and the .zarray dtype's layout. Chunks without a reference are
/// filled with `fill_element` (one element's bytes). Supports filters zlib and shuffle (numcodecs
/// configs); any other filter is an Unsupported error.
Result<std::string> AssembleArray(const ArrayRefs& array, const ZarrArrayMeta& meta,
                                  const std::string& file_path, std::string_view fill_element);

/// Checks (gtest expectations) every array of `refs` with a fixed-size dtype: assembled from its
/// references, it equals libhdf5's H5Dread of the dataset of the same path in `file_path`, read
/// in the file type (no conversion). Returns how many arrays it checked.
int ExpectArraysDecodeLikeLibrary(const ReferenceSet& refs, const std::string& file_path);

}  // namespace kerchunk::testing
