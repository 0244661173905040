// Translation of one HDF5 group or dataset into zarr metadata and chunk references, following
// Python kerchunk's SingleHdf5ToZarr (spec 1, vlen_encode="embed"). Internal to the HDF5
// translator; the public entry point is ScanHdf5File (kerchunk/hdf5/scan_hdf5.h).
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <unordered_map>
#include <vector>

#include "hdf5/attributes_transfer.h"
#include "hdf5/datatype_mapping.h"
#include "hdf5/h5_api.h"
#include "kerchunk/formats/format_scanner.h"
#include "kerchunk/hdf5/file.h"
#include "kerchunk/json/json_value.h"
#include "kerchunk/refs/zarr_metadata.h"
#include "kerchunk/util/status.h"

namespace kerchunk::hdf5::internal {

/// What every object translation of one file shares.
struct TranslationContext {
  std::string file_name;  ///< for messages ("data/x.nc")
  const FileScanOptions* options = nullptr;
  const File* native = nullptr;      ///< the file image for the native chunk-index walker
  std::span<const std::byte> bytes;  ///< the same bytes, for inline chunks
  FileScanResult* result = nullptr;
  /// Object header address -> path without leading "/" of every object reached by hard links
  /// (the names h5py reports for dimension scales).
  std::unordered_map<uint64_t, std::string> object_paths;
};

/// Adds "<path>/.zgroup" and, when the group has attributes, "<path>/.zattrs" ("" = root).
Status TranslateGroup(TranslationContext& context, hid_t group, const std::string& path);

/// Adds the .zarray, .zattrs and chunk references of the dataset at `path` (no leading "/"),
/// whose object header is at `address`; or leaves it out with a warning (null dataspace,
/// dimension scale without data, OnUnsupported::kSkip). Unsupported/DataLoss errors name the
/// dataset; the caller adds the file name.
Status TranslateDataset(TranslationContext& context, hid_t dataset, const std::string& path,
                        uint64_t address);

/// kerchunk's _get_array_dims: per dimension the attached dimension scale's path (without the
/// leading "/"), the dataset's own path when it is itself a scale, else "phony_dim_<n>". When
/// several scales are attached to one dimension (kerchunk fails) the first is taken and a
/// warning added.
Result<json::Value> ArrayDimensions(TranslationContext& context, hid_t dataset,
                                    const std::string& path, size_t rank,
                                    const AttributeSet& attributes);

/// The inputs of the fill value rules.
struct FillValueInputs {
  hid_t dataset = H5I_INVALID_HID;
  hid_t dcpl = H5I_INVALID_HID;
  hid_t file_type = H5I_INVALID_HID;
  const NumpyType* type = nullptr;
  const AttributeSet* attributes = nullptr;
};

/// The .zarray fill_value by kerchunk's rule (KerchunkFillValue in numpy_type.h), the HDF5 fill
/// value and the _FillValue attribute read with libhdf5.
Result<json::Value> DatasetFillValue(const FillValueInputs& in, std::vector<std::string>& warnings,
                                     const std::string& path);

/// The data of a variable-length string or sequence dataset embedded as numcodecs JSON chunks
/// (kerchunk's vlen_encode="embed"): one chunk per `chunks` block, values as JSON, "|O" and the
/// chunk shape appended ([1] for a scalar, which numcodecs cannot decode as []); positions past
/// the edge are null.
Status EmbedVlenChunks(hid_t dataset, const NumpyType& type, const ChunkGrid& grid,
                       ArrayRefs& refs);

/// Reads the decoded values of a dataset with libhdf5 as one chunk in little-endian numpy layout
/// (OnUnsupported::kInline) and sets meta's dtype (a structured dtype list for compound types),
/// fill_value (null) and filters (null). Unsupported when the type has no numpy layout (e.g.
/// references) or the data exceeds `max_bytes`; DataLoss when libhdf5 cannot decode it (a
/// filter plugin it lacks).
Result<std::string> ReadDecodedValues(hid_t dataset, hid_t file_type, uint64_t count,
                                      uint64_t max_bytes, ZarrArrayMeta& meta);

}  // namespace kerchunk::hdf5::internal
