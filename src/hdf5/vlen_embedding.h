// Variable-length strings and sequences embedded in the references as numcodecs JSON chunks
// (kerchunk's vlen_encode="embed"), whichever reader decoded the values. Internal to the HDF5
// translator.
#pragma once

#include <vector>

#include "kerchunk/json/json_value.h"
#include "kerchunk/refs/chunk_grid.h"
#include "kerchunk/refs/reference_set.h"

namespace kerchunk::hdf5::internal {

/// The numcodecs "json2" codec configuration kerchunk writes for embedded values.
json::Value JsonCodecConfig();

/// One chunk per `grid` block holding the values (row-major, one per element of the array) as
/// JSON, "|O" and the chunk shape appended ([1] for a scalar, which numcodecs cannot decode as
/// []); positions past the edge are null. `values` must hold every element.
void EmbedValues(const std::vector<json::Value>& values, const ChunkGrid& grid, ArrayRefs& refs);

}  // namespace kerchunk::hdf5::internal
