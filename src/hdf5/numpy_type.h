// How an HDF5 datatype appears to zarr (numpy dtype string, value kind): the result type of both
// the native type mapping and the libhdf5 one. Internal to the HDF5 translator.
#pragma once

#include <cstddef>
#include <string>

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

/// The numpy dtype of an atomic numeric type in little-endian order ("<i4", "|u1"): what H5Dread
/// returns when asked for LittleEndianMemoryType(type).
std::string LittleEndianDtype(const std::string& dtype);

}  // namespace kerchunk::hdf5::internal
