// How an HDF5 datatype appears to zarr: the numpy dtype string h5py would give the dataset
// ("<f4", ">i2", "|S20", "|O", "|b1"), or why there is none (compound, opaque, array, reference).
// Internal to the HDF5 translator.
#pragma once

#include <cstddef>
#include <string>

#include "hdf5/h5_api.h"
#include "hdf5/numpy_type.h"
#include "kerchunk/util/status.h"

namespace kerchunk::hdf5::internal {

/// Describes a dataset's file datatype (H5Dget_type). Fails only when libhdf5 does.
Result<NumpyType> DescribeType(hid_t file_type);

/// The numpy dtype of an atomic numeric type (integer, float, bitfield, enum base) in the file's
/// byte order, e.g. "<i4"; "" when numpy has no such type (e.g. a 3-byte integer).
std::string NumericDtype(hid_t type);

/// A copy of a numeric file type with little-endian byte order (for H5Dread/H5Aread into
/// numpy-compatible bytes on any host). The caller closes it.
hid_t LittleEndianMemoryType(hid_t type);

}  // namespace kerchunk::hdf5::internal
