// The HDF5 -> zarr translation on the native reader (kerchunk/hdf5/data_object.h and friends):
// the same references, .zarray/.zattrs and warnings as the libhdf5-based translator
// (dataset_translator.h, kept as the test oracle), without libhdf5 and without its global lock.
// Internal to the HDF5 translator; the public entry point is ScanHdf5File.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "hdf5/attribute_set.h"
#include "hdf5/numpy_type.h"
#include "kerchunk/formats/format_scanner.h"
#include "kerchunk/hdf5/data_object.h"
#include "kerchunk/hdf5/file.h"
#include "kerchunk/hdf5/global_heap.h"
#include "kerchunk/json/json_value.h"
#include "kerchunk/util/status.h"

namespace kerchunk::hdf5::internal {

/// What every object translation of one file shares.
/// Variable-length datasets are embedded as JSON values, every element in memory at once: at
/// most this many elements (1 M strings already make an index of tens of MB; a fuzzed 25 KB
/// file of 2.75 M null strings took 0.6 s, and 10 s under the fuzzer's sanitizers) and this many
/// bytes of element descriptors, and of the values they point to. A hostile dataspace or element
/// size is refused up front.
inline constexpr uint64_t kMaxEmbeddedElements = uint64_t{1} << 20;
inline constexpr uint64_t kMaxEmbeddedRawBytes = uint64_t{1} << 26;
/// The largest element of a dataset the scan translates (64 MiB). zarr reads a chunk into memory
/// whole and a fill value is one element: a larger element is no array a reader can use, and a
/// hostile datatype size (its field holds up to 4 GiB) must not size a buffer.
inline constexpr uint64_t kMaxElementBytes = uint64_t{1} << 26;

struct NativeContext {
  std::string file_name;
  const FileScanOptions* options = nullptr;
  const File* file = nullptr;
  FileScanResult* result = nullptr;
  /// Object header address -> path (no leading "/") of every object reached by hard links.
  std::unordered_map<uint64_t, std::string> object_paths;
  /// Set when the file needs something only libhdf5 does (e.g. decoding values for
  /// OnUnsupported::kInline); translation then stops and the caller falls back.
  std::string fallback_reason;
  /// Set when a dataset failed under OnUnsupported::kError (a verdict on the data, which libhdf5
  /// would give too), as opposed to a structure this reader does not read.
  bool policy_error = false;
  /// The file's global heap collections, indexed once for all its datasets: each dataset's
  /// DIMENSION_LIST points into the same collection, which a reader per dataset indexed again
  /// (99 arrays of an opendrift file: a fifth of its scan).
  std::optional<GlobalHeapReader> global_heap;

  GlobalHeapReader& GlobalHeap() {
    if (!global_heap) global_heap.emplace(*file);
    return *global_heap;
  }
};

/// Translates the whole file. When it returns with context.fallback_reason set, the result is
/// incomplete and must be discarded.
Status TranslateFileNative(NativeContext& context);

/// Reads an object's attributes into the translation's view (kerchunk's _transfer_attrs).
/// Attributes that JSON cannot hold are listed in `skipped`. May set context.fallback_reason.
Result<AttributeSet> ReadNativeAttributes(NativeContext& context,
                                          const std::vector<Attribute>& attributes);

/// The root-group test for a netCDF unlimited dimension: a rank-1 dataset whose first maximum
/// extent is unlimited and whose CLASS attribute reads as "DIMENSION_SCALE" through a 16-byte
/// C string (as scan_hdf5.cpp's libhdf5 version does).
bool IsUnlimitedDimensionScaleNative(const Dataspace& space,
                                     const std::vector<Attribute>& attributes);

/// _ARRAY_DIMENSIONS from DIMENSION_LIST (see ArrayDimensions in dataset_translator.h).
Result<json::Value> NativeArrayDimensions(NativeContext& context,
                                          const std::vector<Attribute>& attributes,
                                          const std::string& path, size_t rank,
                                          const AttributeSet& set);

/// The .zarray fill_value (see DatasetFillValue in dataset_translator.h).
Result<json::Value> NativeFillValue(NativeContext& context, const DataObject& object,
                                    const Datatype& type, const NumpyType& numpy,
                                    const std::vector<Attribute>& attributes,
                                    const AttributeSet& set, const std::string& path);

/// Every element of a variable-length string or sequence dataset as JSON values (strings, or
/// lists of numbers), in row-major order, read from compact, contiguous or chunked storage.
Result<std::vector<json::Value>> ReadNativeVlenValues(NativeContext& context,
                                                      const DataObject& object,
                                                      const Datatype& type, const Dataspace& space,
                                                      const std::string& path);

/// The strings of a variable-length string element list (`count` elements of `data`), "" for
/// null elements, each cut at its first NUL as h5py's reading does.
Result<std::vector<std::string>> ReadVlenStrings(NativeContext& context,
                                                 std::span<const std::byte> data, uint64_t count,
                                                 uint64_t data_offset);

}  // namespace kerchunk::hdf5::internal
