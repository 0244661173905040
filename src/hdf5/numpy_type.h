// How an HDF5 datatype appears to zarr (numpy dtype string, value kind): the result type of both
// the native type mapping and the libhdf5 one, and the rules they share (which types are numeric,
// when a compound type is a zarr structured dtype, how fill values are written), so that each
// rule exists once and the two readers only differ in how they read the type. Internal to the
// HDF5 translator.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "hdf5/attribute_set.h"
#include "kerchunk/json/json_value.h"
#include "kerchunk/util/status.h"

namespace kerchunk::hdf5::internal {

/// What kind of values a dataset holds, as far as the translation cares.
enum class TypeClass {
  kNumeric,       ///< integer, float, enum (as its base integer), bitfield (as unsigned), complex
  kBool,          ///< h5py's boolean: an enum of int8 with exactly FALSE=0 and TRUE=1
  kFixedString,   ///< fixed-length string: "|S<n>"
  kStructured,    ///< a packed compound: a numpy structured dtype (`dtype_json` is its list)
  kVlenString,    ///< variable-length string: "|O", embedded as JSON
  kVlenSequence,  ///< variable-length sequence of numbers: "|O", embedded as JSON lists
  kUnsupported,   ///< compound with padding, opaque, array, reference, time, odd floats
};

/// The zarr view of one HDF5 datatype.
struct NumpyType {
  TypeClass type_class = TypeClass::kUnsupported;
  /// numpy dtype string in the file's byte order; for kStructured the compact JSON of
  /// `dtype_json`; "" for kUnsupported.
  std::string dtype;
  /// For kStructured: the zarr v2 dtype list, [["a", "<i4"], ["b", ">f8", [3]], ...]; null
  /// otherwise.
  json::Value dtype_json;
  /// Bytes per element as stored in the file (16 for vlen: the heap reference size).
  size_t file_size = 0;
  /// For kVlenSequence: the dtype of the sequence's elements (native byte order, "<f4").
  std::string element_dtype;
  /// For kUnsupported: what the type is, e.g. "compound type", "reference type".
  std::string unsupported_reason;
};

/// A type zarr cannot read from the file's bytes, and why.
NumpyType MakeUnsupportedType(size_t size, std::string reason);

/// A numeric type, or unsupported when `dtype` is "" (numpy has no such type): "<what> of
/// <size> bytes with no numpy equivalent".
NumpyType MakeNumericType(size_t size, std::string dtype, std::string_view what);

/// h5py's boolean enum: "|b1".
NumpyType MakeBoolType();

/// One member of a compound type as a reader found it. For an array-typed member, `type`
/// describes the array's base type and `array_dims` holds the array's dimensions.
struct StructuredField {
  std::string name;
  uint64_t offset = 0;
  NumpyType type;
  std::vector<uint64_t> array_dims;
};

/// The zarr view of a compound type of `size` bytes with `fields` in the type's member order.
/// numpy lays a structured dtype given as a list out packed, in list order; the file's bytes
/// can be referenced as such only when the compound has the same layout: the first member at
/// 0, each next one right after the previous, no bytes after the last, every member numeric,
/// boolean, a fixed-length string, such a compound or an array of one of the first three. h5py's
/// complex convention (members "r" and "i" of one float type) is the complex dtype "<c8"/"<c16"
/// h5py reads. Anything else is unsupported, with the first reason found.
NumpyType DescribeCompound(size_t size, const std::vector<StructuredField>& fields);

/// The numpy dtype of an atomic numeric type in little-endian order ("<i4", "|u1"): what H5Dread
/// returns when asked for LittleEndianMemoryType(type).
std::string LittleEndianDtype(const std::string& dtype);

/// kerchunk's fill value of a fixed-length string dataset: zarr's base64 of numpy's bytes
/// (trailing NULs dropped), " " when nothing is left.
json::Value StringFillValue(std::string_view raw);

/// A fill value given as one element's bytes in the file type, as zarr v2 writes it for `type`:
/// strings as StringFillValue, structured dtypes as base64 of the element (zarr's "V" rule),
/// everything else by EncodeFillValue.
json::Value EncodeTypedFillValue(std::string_view raw, const NumpyType& type);

/// A fill value source of one reader, called only when the rule needs it.
using FillValueSource = std::function<Result<json::Value>()>;

/// The .zarray fill_value as kerchunk derives it: variable-length data -> null; fixed strings ->
/// the HDF5 fill value (`hdf5_fill`, null when undefined) or " " in base64; netCDF variables
/// and datetimes (units with "since") -> null; others -> the HDF5 fill value. Then an existing
/// _FillValue attribute (`attribute_fill`, converted to the dataset's type) wins; when it
/// cannot be converted the fill value is null and `warnings` says why.
Result<json::Value> KerchunkFillValue(const NumpyType& type, const AttributeSet& attributes,
                                      const FillValueSource& hdf5_fill,
                                      const FillValueSource& attribute_fill,
                                      std::vector<std::string>& warnings, const std::string& path);

/// Whether the dataset's values are a compound type in the file (structured, or h5py's complex
/// pair): a _FillValue attribute then counts only when it has the dataset's own type.
bool IsCompoundNumpyType(const NumpyType& type);

/// Why such a _FillValue is ignored (both readers warn with it).
inline constexpr std::string_view kCompoundFillMismatch =
    "_FillValue does not have the dataset's compound type";

/// Whether `v` is an integer in the range of the integer dtype ("<i2", "|u1").
bool FitsIntegerDtype(double v, std::string_view dtype);

}  // namespace kerchunk::hdf5::internal
