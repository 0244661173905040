// One dataset -> .zarray, .zattrs and chunk references (see dataset_translator.h).
#include "hdf5/dataset_translator.h"

#include <fmt/format.h>

#include <vector>

#include "hdf5/dataset_translator_chunks.h"
#include "hdf5/filters_mapping.h"
#include "hdf5/h5_library.h"
#include "hdf5/h5_strings.h"
#include "hdf5/translation_output.h"
#include "hdf5/vlen_embedding.h"
#include "kerchunk/json/json_value.h"

namespace kerchunk::hdf5::internal {
namespace {

// Everything about a dataset that decides how it is translated.
struct DatasetFacts {
  Handle space, file_type, dcpl;
  H5D_layout_t layout = H5D_LAYOUT_ERROR;
  std::vector<uint64_t> dims, max_dims, chunks;
  uint64_t count = 1;  // number of elements
  NumpyType type;
  AttributeSet attributes;
};

Result<DatasetFacts> ReadFacts(hid_t dataset) {
  DatasetFacts f;
  KERCHUNK_ASSIGN_OR_RETURN(f.space, Check(H5Dget_space(dataset), "cannot read the dataspace"));
  KERCHUNK_ASSIGN_OR_RETURN(f.file_type, Check(H5Dget_type(dataset), "cannot read the datatype"));
  KERCHUNK_ASSIGN_OR_RETURN(f.dcpl, Check(H5Dget_create_plist(dataset), "cannot read properties"));
  f.layout = H5Pget_layout(f.dcpl.get());
  if (f.layout < 0) return LibraryError("cannot read the storage layout");
  const int rank = H5Sget_simple_extent_ndims(f.space.get());
  if (rank < 0) return LibraryError("cannot read the dataspace");
  std::vector<hsize_t> dims(rank), max_dims(rank), chunks(rank);
  if (rank > 0 && H5Sget_simple_extent_dims(f.space.get(), dims.data(), max_dims.data()) < 0) {
    return LibraryError("cannot read the dataspace");
  }
  f.dims.assign(dims.begin(), dims.end());
  f.max_dims.assign(max_dims.begin(), max_dims.end());
  for (uint64_t d : f.dims) f.count *= d;
  if (f.layout == H5D_CHUNKED) {
    if (H5Pget_chunk(f.dcpl.get(), rank, chunks.data()) != rank) {
      return LibraryError("cannot read the chunk shape");
    }
    f.chunks.assign(chunks.begin(), chunks.end());
  } else {
    // One chunk holds the whole array (zarr needs extents of at least 1).
    for (uint64_t d : f.dims) f.chunks.push_back(d == 0 ? 1 : d);
  }
  KERCHUNK_ASSIGN_OR_RETURN(f.type, DescribeType(f.file_type.get()));
  KERCHUNK_ASSIGN_OR_RETURN(f.attributes, ReadAttributes(dataset));
  return f;
}

ZarrArrayMeta BaseMeta(const DatasetFacts& f) { return BaseArrayMeta(f.dims, f.chunks, f.type); }

// Adds .zarray and .zattrs and an empty chunk column for the array.
Result<ArrayRefs*> AddArrayMetadata(TranslationContext& context, hid_t dataset,
                                    const std::string& path, const DatasetFacts& f,
                                    const ZarrArrayMeta& meta) {
  KERCHUNK_ASSIGN_OR_RETURN(ChunkGrid grid, meta.Grid());
  KERCHUNK_ASSIGN_OR_RETURN(json::Value dims,
                            ArrayDimensions(context, dataset, path, f.dims.size(), f.attributes));
  return &AddArrayEntries(*context.result, path, meta, std::move(grid), f.attributes,
                          std::move(dims));
}

// OnUnsupported: fail, leave the variable out, or store its decoded values inline.
Status HandleUnsupported(TranslationContext& context, hid_t dataset, const std::string& path,
                         const DatasetFacts& f, const std::string& reason) {
  if (std::optional<Status> done = RefuseOrSkip(*context.options, *context.result, path, reason)) {
    return *done;
  }
  ZarrArrayMeta meta = BaseMeta(f);
  for (size_t d = 0; d < meta.chunks.size(); ++d) meta.chunks[d] = f.dims[d] == 0 ? 1 : f.dims[d];
  auto data = ReadDecodedValues(dataset, f.file_type.get(), f.count,
                                context.options->max_inline_bytes, meta);
  if (!data.ok()) {
    return Status(data.status().code(), fmt::format("dataset /{}: {}; cannot inline it: {}", path,
                                                    reason, data.status().message()));
  }
  KERCHUNK_ASSIGN_OR_RETURN(ArrayRefs * array, AddArrayMetadata(context, dataset, path, f, meta));
  if (f.count > 0) array->AddInline(0, *data, /*base64=*/true);
  context.result->warnings.push_back(
      fmt::format("dataset /{} stored inline ({} bytes decoded): {}", path, data->size(), reason));
  return OkStatus();
}

Status TranslateEmbedded(TranslationContext& context, hid_t dataset, const std::string& path,
                         const DatasetFacts& f) {
  ZarrArrayMeta meta = BaseMeta(f);
  meta.filters = json::Value::MakeArray({JsonCodecConfig()});
  KERCHUNK_ASSIGN_OR_RETURN(ArrayRefs * array, AddArrayMetadata(context, dataset, path, f, meta));
  return EmbedVlenChunks(dataset, f.type, array->grid(), *array);
}

Status TranslateCompact(TranslationContext& context, hid_t dataset, const std::string& path,
                        const DatasetFacts& f) {
  // kerchunk writes compact data through zarr with no fill value and no filters.
  ZarrArrayMeta meta = BaseMeta(f);
  std::string data(f.count * f.type.file_size, '\0');
  if (f.count &&
      H5Dread(dataset, f.file_type.get(), H5S_ALL, H5S_ALL, H5P_DEFAULT, data.data()) < 0) {
    return LibraryError(fmt::format("dataset /{}: cannot read compact data", path));
  }
  KERCHUNK_ASSIGN_OR_RETURN(ArrayRefs * array, AddArrayMetadata(context, dataset, path, f, meta));
  if (f.count) array->AddInline(0, data, /*base64=*/!json::IsValidUtf8(data));
  return OkStatus();
}

Status TranslateStored(TranslationContext& context, hid_t dataset, const std::string& path,
                       uint64_t address, const DatasetFacts& f) {
  FilterPipeline pipeline;
  if (f.layout == H5D_CHUNKED) {
    KERCHUNK_ASSIGN_OR_RETURN(pipeline, DescribeFilters(f.dcpl.get(), f.type.file_size));
    if (!pipeline.unsupported_reason.empty()) {
      return HandleUnsupported(context, dataset, path, f, pipeline.unsupported_reason);
    }
  }
  ZarrArrayMeta meta = BaseMeta(f);
  KERCHUNK_ASSIGN_OR_RETURN(ChunkGrid grid, meta.Grid());
  StoredChunks stored;
  if (f.layout == H5D_CHUNKED) {
    ChunkedDatasetInfo info{address, f.dims, f.max_dims};
    const bool filtered = !pipeline.filters.as_array().empty() || pipeline.fletcher32;
    auto listed = ListChunks(*context.native, info, grid, filtered, pipeline.fletcher32);
    if (!listed.ok() && listed.status().code() == StatusCode::kUnsupported) {
      // A layout the native walker does not read (e.g. an unknown layout message version).
      return HandleUnsupported(context, dataset, path, f, listed.status().message());
    }
    KERCHUNK_ASSIGN_OR_RETURN(stored, std::move(listed).Annotate("dataset /{}", path));
    if (!stored.unsupported_reason.empty()) {
      return HandleUnsupported(context, dataset, path, f, stored.unsupported_reason);
    }
  } else {
    KERCHUNK_ASSIGN_OR_RETURN(stored, ContiguousChunk(dataset));
  }
  // kerchunk leaves out dimension scales without data (netCDF dimensions that are not
  // variables).
  if (f.attributes.is_dimension_scale && stored.chunks.empty()) return OkStatus();
  if (pipeline.filters.as_array().size() > 0) meta.filters = pipeline.filters;
  FillValueInputs fill{dataset, f.dcpl.get(), f.file_type.get(), &f.type, &f.attributes};
  KERCHUNK_ASSIGN_OR_RETURN(meta.fill_value,
                            DatasetFillValue(fill, context.result->warnings, path));
  KERCHUNK_ASSIGN_OR_RETURN(ArrayRefs * array, AddArrayMetadata(context, dataset, path, f, meta));
  return AddChunkReferences(context, stored, *array);
}

}  // namespace

Status TranslateGroup(TranslationContext& context, hid_t group, const std::string& path) {
  KERCHUNK_ASSIGN_OR_RETURN(AttributeSet attributes,
                            ReadAttributes(group).Annotate("group /{}", path));
  AddGroupEntries(*context.result, path, attributes);
  return OkStatus();
}

Status TranslateDataset(TranslationContext& context, hid_t dataset, const std::string& path,
                        uint64_t address) {
  KERCHUNK_ASSIGN_OR_RETURN(DatasetFacts f, ReadFacts(dataset).Annotate("dataset /{}", path));
  if (H5Sget_simple_extent_type(f.space.get()) == H5S_NULL) {
    context.result->warnings.push_back(
        fmt::format("dataset /{} skipped: null dataspace (it holds no values)", path));
    return OkStatus();
  }
  if (f.layout == H5D_VIRTUAL) {
    return HandleUnsupported(context, dataset, path, f, "virtual dataset layout");
  }
  if (f.type.type_class == TypeClass::kUnsupported) {
    return HandleUnsupported(context, dataset, path, f, f.type.unsupported_reason);
  }
  if (f.type.type_class == TypeClass::kVlenString ||
      f.type.type_class == TypeClass::kVlenSequence) {
    if (f.layout != H5D_COMPACT && f.attributes.is_dimension_scale) {
      KERCHUNK_ASSIGN_OR_RETURN(bool has_data, HasStoredData(dataset, f.layout));
      if (!has_data) return OkStatus();
    }
    return TranslateEmbedded(context, dataset, path, f).Annotate("dataset /{}", path);
  }
  if (f.layout == H5D_COMPACT) return TranslateCompact(context, dataset, path, f);
  return TranslateStored(context, dataset, path, address, f);
}

}  // namespace kerchunk::hdf5::internal
