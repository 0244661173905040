// The zarr view of a natively decoded HDF5 datatype, and the decoding of stored values (numbers,
// fixed-length strings) as libhdf5's conversions would present them to h5py. Internal to the
// HDF5 translator; no libhdf5 here.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "hdf5/numpy_type.h"
#include "kerchunk/hdf5/datatype.h"
#include "kerchunk/json/json_value.h"
#include "kerchunk/util/status.h"

namespace kerchunk::hdf5::internal {

/// The numpy dtype string and value kind of `type`, with the same rules and reasons as the
/// libhdf5-based DescribeType (datatype_mapping.h).
NumpyType DescribeNativeType(const Datatype& type);

/// The members of a compound type in message order, each described by DescribeNativeType
/// (array-typed members by their base type and dimensions), for DescribeCompound.
std::vector<StructuredField> NativeStructuredFields(const Datatype& type);

/// The numpy dtype of an integer, bitfield, float or enum (its base) in the file's byte order;
/// "" when numpy has none.
std::string NativeNumericDtype(const Datatype& type);

/// h5py's boolean enum: exactly FALSE=0 and TRUE=1 over one byte.
bool IsBoolEnum(const Datatype& type);

/// One element of an integer-like type (integer, enum base, bitfield) of at most 8 bytes as
/// its unsigned bit pattern in host order, honouring byte order, bit offset and precision.
uint64_t LoadBits(std::span<const std::byte> element, const Datatype& type);

/// The value of one integer element as JSON: Int for signed types, Uint otherwise.
json::Value IntegerValue(std::span<const std::byte> element, const Datatype& type);

/// The value of one IEEE binary16/32/64 element as a double; nullopt for other float layouts.
std::optional<double> FloatValue(std::span<const std::byte> element, const Datatype& type);

/// A fixed-length string element as libhdf5 converts it to a null-padded string of the same
/// size (h5py's reading), trailing NULs removed: null-terminated values end at their first NUL,
/// space-padded values lose their trailing spaces, null-padded values are kept as stored.
std::string FixedStringValue(std::string_view element, StringPadding padding);

/// libhdf5's string-to-string conversion (H5T__conv_s_s) of one element into a fixed string
/// of `dst_size` bytes with padding `dst_padding`.
std::string ConvertFixedString(std::string_view element, StringPadding src_padding, size_t dst_size,
                               StringPadding dst_padding);

}  // namespace kerchunk::hdf5::internal
