// How an HDF5 datatype appears to zarr: the numpy dtype string h5py would give the dataset
// ("<f4", ">i2", "|S20", "|O", "|b1"), or why there is none (compound, opaque, array, reference).
// Internal to the HDF5 translator.
#pragma once

#include <hdf5.h>

#include <cstddef>
#include <string>

#include "kerchunk/util/status.h"

namespace kerchunk::hdf5::internal {

/// What kind of values a dataset holds, as far as the translation cares.
enum class TypeClass {
  kNumeric,       ///< integer, float, enum (as its base integer), bitfield (as unsigned)
  kBool,          ///< h5py's boolean: an enum of int8 with exactly FALSE=0 and TRUE=1
  kFixedString,   ///< fixed-length string: "|S<n>"
  kVlenString,    ///< variable-length string: "|O", embedded as JSON
  kVlenSequence,  ///< variable-length sequence of numbers: "|O", embedded as JSON lists
  kUnsupported,   ///< compound, opaque, array, reference, time, odd floats
};

/// The zarr view of one HDF5 datatype.
struct NumpyType {
  TypeClass type_class = TypeClass::kUnsupported;
  /// numpy dtype string in the file's byte order; "" for kUnsupported.
  std::string dtype;
  /// Bytes per element as stored in the file (16 for vlen: the heap reference size).
  size_t file_size = 0;
  /// For kVlenSequence: the dtype of the sequence's elements (native byte order, "<f4").
  std::string element_dtype;
  /// For kUnsupported: what the type is, e.g. "compound type", "reference type".
  std::string unsupported_reason;
};

/// Describes a dataset's file datatype (H5Dget_type). Fails only when libhdf5 does.
Result<NumpyType> DescribeType(hid_t file_type);

/// The numpy dtype of an atomic numeric type (integer, float, bitfield, enum base) in the file's
/// byte order, e.g. "<i4"; "" when numpy has no such type (e.g. a 3-byte integer).
std::string NumericDtype(hid_t type);

/// The numpy dtype of an atomic numeric type in little-endian order ("<i4", "|u1"): what H5Dread
/// returns when asked for LittleEndianMemoryType(type).
std::string LittleEndianDtype(const std::string& dtype);

/// A copy of a numeric file type with little-endian byte order (for H5Dread/H5Aread into
/// numpy-compatible bytes on any host). The caller closes it.
hid_t LittleEndianMemoryType(hid_t type);

}  // namespace kerchunk::hdf5::internal
