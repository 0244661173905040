// Native translation of a whole file: the object walk (h5py's visititems order) and each group
// and dataset; see native_translator.h. The flow mirrors dataset_translator.cpp and
// scan_hdf5.cpp step by step so that the two write the same output.
#include "hdf5/native_translator.h"

#include <fmt/format.h>

#include <unordered_set>

#include "hdf5/chunk_references.h"
#include "hdf5/native_types.h"
#include "hdf5/translation_output.h"
#include "hdf5/vlen_embedding.h"
#include "hdf5/zarr_filters.h"
#include "kerchunk/hdf5/chunk_index.h"
#include "kerchunk/hdf5/data_layout.h"
#include "kerchunk/hdf5/dataspace.h"
#include "kerchunk/hdf5/filter_pipeline.h"
#include "kerchunk/json/json_value.h"
#include "kerchunk/refs/zarr_metadata.h"
#include "kerchunk/util/checked_math.h"

namespace kerchunk::hdf5::internal {
namespace {

// Deeper group nesting than any writer produces; bounds the recursion on hostile input.
constexpr int kMaxGroupDepth = 256;

struct VisitedObject {
  std::string path;  // without leading "/"; "" for the root group
  DataObject object;
};

// H5Ovisit(H5_INDEX_NAME, H5_ITER_INC): the object, then each hard link of a group in name
// order, descending into groups first; an object reached by several links is visited once.
class ObjectWalk {
 public:
  explicit ObjectWalk(const File& file) : file_(file) {}

  Status Visit(uint64_t address, const std::string& path, int depth) {
    if (depth > kMaxGroupDepth) {
      return DataLossError("group /{}: nested more than {} groups deep", path, kMaxGroupDepth);
    }
    seen_.insert(address);
    KERCHUNK_ASSIGN_OR_RETURN(DataObject object,
                              ReadDataObject(file_, address).Annotate("object /{}", path));
    const bool group = object.kind() == ObjectKind::kGroup;
    objects.push_back({path, object});
    if (!group) return OkStatus();
    KERCHUNK_ASSIGN_OR_RETURN(std::vector<Link> links,
                              ListGroupLinks(file_, object).Annotate("group /{}", path));
    for (const Link& link : links) {
      if (link.type != LinkType::kHard || seen_.count(link.address)) continue;
      const std::string child = path.empty() ? link.name : path + "/" + link.name;
      KERCHUNK_RETURN_IF_ERROR(Visit(link.address, child, depth + 1));
    }
    return OkStatus();
  }

  std::vector<VisitedObject> objects;

 private:
  const File& file_;
  std::unordered_set<uint64_t> seen_;
};

// Everything about a dataset that decides how it is translated (ReadFacts in the oracle).
struct DatasetFacts {
  Dataspace space;
  Datatype type;
  DataLayout layout;
  std::vector<uint64_t> chunks;
  uint64_t count = 1;
  NumpyType numpy;
  std::vector<Attribute> attribute_list;
  AttributeSet attributes;
};

Result<DatasetFacts> ReadFacts(NativeContext& context, const DataObject& o) {
  DatasetFacts f;
  const File& file = *context.file;
  KERCHUNK_ASSIGN_OR_RETURN(f.space,
                            DecodeDataspace(file, o.dataspace->Reader("dataspace message")));
  ByteReader type_reader = o.datatype->Reader("datatype message");
  KERCHUNK_ASSIGN_OR_RETURN(f.type, DecodeDatatype(type_reader));
  if (!o.layout)
    return DataLossError("object header at address {}: no data layout message", o.address);
  KERCHUNK_ASSIGN_OR_RETURN(f.layout, DecodeDataLayout(file, *o.layout));
  KERCHUNK_ASSIGN_OR_RETURN(f.count, f.space.ElementCount());
  if (f.layout.layout_class == LayoutClass::kChunked) {
    if (f.layout.chunk_dims.size() != f.space.dims.size()) {
      return DataLossError("chunk rank {} differs from the dataspace rank {}",
                           f.layout.chunk_dims.size(), f.space.dims.size());
    }
    f.chunks = f.layout.chunk_dims;
  } else {
    for (uint64_t d : f.space.dims) f.chunks.push_back(d == 0 ? 1 : d);
  }
  f.numpy = DescribeNativeType(f.type);
  KERCHUNK_ASSIGN_OR_RETURN(f.attribute_list, ListAttributes(file, o));
  KERCHUNK_ASSIGN_OR_RETURN(f.attributes, ReadNativeAttributes(context, f.attribute_list));
  return f;
}

ZarrArrayMeta BaseMeta(const DatasetFacts& f) {
  return BaseArrayMeta(f.space.dims, f.chunks, f.numpy);
}

Result<ArrayRefs*> AddArrayMetadata(NativeContext& context, const std::string& path,
                                    const DatasetFacts& f, const ZarrArrayMeta& meta) {
  KERCHUNK_ASSIGN_OR_RETURN(ChunkGrid grid, meta.Grid());
  KERCHUNK_ASSIGN_OR_RETURN(
      json::Value dims,
      NativeArrayDimensions(context, f.attribute_list, path, f.space.dims.size(), f.attributes));
  return &AddArrayEntries(*context.result, path, meta, std::move(grid), f.attributes,
                          std::move(dims));
}

Status HandleUnsupported(NativeContext& context, const std::string& path,
                         const std::string& reason) {
  if (std::optional<Status> done = RefuseOrSkip(*context.options, *context.result, path, reason)) {
    if (!done->ok()) context.policy_error = true;
    return *done;
  }
  // Decoding values into numpy layout (filters, type conversion) is libhdf5's job.
  context.fallback_reason =
      fmt::format("dataset /{}: --on-unsupported inline decodes values with libhdf5", path);
  return OkStatus();
}

// Whether a dataset has storage allocated (HasStoredData in the oracle).
Result<bool> HasStoredData(NativeContext& context, const DataObject& o, const DatasetFacts& f) {
  if (f.layout.layout_class == LayoutClass::kContiguous) {
    return f.layout.data_address != kUndefinedAddress;
  }
  bool any = false;
  ChunkedDatasetInfo info{o.address, f.space.dims, f.space.max_dims};
  KERCHUNK_RETURN_IF_ERROR(
      WalkChunkIndex(*context.file, f.layout, info,
                     [&](std::span<const uint64_t>, uint64_t, uint64_t size, uint32_t) -> Status {
                       if (size > 0) any = true;
                       return OkStatus();
                     }));
  return any;
}

Status TranslateEmbedded(NativeContext& context, const DataObject& o, const std::string& path,
                         const DatasetFacts& f) {
  ZarrArrayMeta meta = BaseMeta(f);
  meta.filters = json::Value::MakeArray({JsonCodecConfig()});
  // Values first: a fallback must leave nothing half-added.
  std::vector<json::Value> values;
  // Every element becomes JSON in memory; a count no real file embeds is refused up front
  // (a hostile dataspace must not exhaust memory).
  if (f.count > kMaxEmbeddedElements) {
    context.policy_error = true;
    return UnsupportedError("{} variable-length elements: more than the {} this scan embeds",
                            f.count, kMaxEmbeddedElements);
  }
  if (f.count > 0) {
    KERCHUNK_ASSIGN_OR_RETURN(values, ReadNativeVlenValues(context, o, f.type, f.space, path));
    if (!context.fallback_reason.empty()) return OkStatus();
  }
  KERCHUNK_ASSIGN_OR_RETURN(ArrayRefs * array, AddArrayMetadata(context, path, f, meta));
  if (f.count > 0) EmbedValues(values, array->grid(), *array);
  return OkStatus();
}

Status TranslateCompact(NativeContext& context, const std::string& path, const DatasetFacts& f) {
  ZarrArrayMeta meta = BaseMeta(f);
  const auto checked = CheckedMul(f.count, f.numpy.file_size);
  const uint64_t size = checked.value_or(~uint64_t{0});
  if (size > f.layout.compact_size) {
    return DataLossError(
        "dataset /{}: compact data of {} bytes at address {} holds less than the "
        "{} bytes of its {} elements",
        path, f.layout.compact_size, f.layout.compact_offset, size, f.count);
  }
  const auto bytes = context.file->bytes().subspan(f.layout.compact_offset, size);
  const std::string data(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  KERCHUNK_ASSIGN_OR_RETURN(ArrayRefs * array, AddArrayMetadata(context, path, f, meta));
  if (f.count) array->AddInline(0, data, /*base64=*/!json::IsValidUtf8(data));
  return OkStatus();
}

Result<StoredChunks> ContiguousChunk(NativeContext& context, const DatasetFacts& f) {
  StoredChunks out;
  if (f.layout.data_address == kUndefinedAddress) return out;
  KERCHUNK_ASSIGN_OR_RETURN(uint64_t offset,
                            context.file->ToFileOffset(f.layout.data_address, "contiguous data"));
  // Layout versions 1 and 2 do not store the size: libhdf5 takes elements times element size.
  const auto size =
      f.layout.version < 3 ? CheckedMul(f.count, f.type.size) : std::optional(f.layout.data_size);
  if (!size) return DataLossError("contiguous data size overflows 64 bits");
  out.chunks.push_back({0, offset, *size});
  return out;
}

Status TranslateStored(NativeContext& context, const DataObject& o, const std::string& path,
                       const DatasetFacts& f) {
  FilterPipeline pipeline;
  const bool chunked = f.layout.layout_class == LayoutClass::kChunked;
  if (chunked && o.filter_pipeline) {
    KERCHUNK_ASSIGN_OR_RETURN(
        std::vector<FilterDescription> filters,
        DecodeFilterPipeline(o.filter_pipeline->Reader("filter pipeline message")));
    pipeline = MapFilters(filters, f.numpy.file_size);
    if (!pipeline.unsupported_reason.empty()) {
      return HandleUnsupported(context, path, pipeline.unsupported_reason);
    }
  }
  ZarrArrayMeta meta = BaseMeta(f);
  KERCHUNK_ASSIGN_OR_RETURN(ChunkGrid grid, meta.Grid());
  StoredChunks stored;
  if (chunked) {
    ChunkedDatasetInfo info{o.address, f.space.dims, f.space.max_dims};
    const bool filtered = !pipeline.filters.as_array().empty() || pipeline.fletcher32;
    auto listed = ListChunks(*context.file, info, grid, filtered, pipeline.fletcher32);
    if (!listed.ok() && listed.status().code() == StatusCode::kUnsupported) {
      return HandleUnsupported(context, path, listed.status().message());
    }
    KERCHUNK_ASSIGN_OR_RETURN(stored, std::move(listed).Annotate("dataset /{}", path));
    if (!stored.unsupported_reason.empty()) {
      return HandleUnsupported(context, path, stored.unsupported_reason);
    }
  } else {
    KERCHUNK_ASSIGN_OR_RETURN(stored, ContiguousChunk(context, f));
  }
  if (f.attributes.is_dimension_scale && stored.chunks.empty()) return OkStatus();
  if (pipeline.filters.as_array().size() > 0) meta.filters = pipeline.filters;
  KERCHUNK_ASSIGN_OR_RETURN(meta.fill_value, NativeFillValue(context, o, f.type, f.numpy,
                                                             f.attribute_list, f.attributes, path));
  if (!context.fallback_reason.empty()) return OkStatus();
  KERCHUNK_ASSIGN_OR_RETURN(ArrayRefs * array, AddArrayMetadata(context, path, f, meta));
  return AddChunkReferences(*context.options, context.file->bytes(), *context.result, stored,
                            *array);
}

Status TranslateGroup(NativeContext& context, const DataObject& o, const std::string& path) {
  KERCHUNK_ASSIGN_OR_RETURN(std::vector<Attribute> list, ListAttributes(*context.file, o));
  KERCHUNK_ASSIGN_OR_RETURN(AttributeSet attributes, ReadNativeAttributes(context, list));
  AddGroupEntries(*context.result, path, attributes);
  return OkStatus();
}

Status TranslateDataset(NativeContext& context, const DataObject& o, const std::string& path,
                        const DatasetFacts& f) {
  if (!context.fallback_reason.empty()) return OkStatus();
  if (f.space.space_class == DataspaceClass::kNull) {
    context.result->warnings.push_back(
        fmt::format("dataset /{} skipped: null dataspace (it holds no values)", path));
    return OkStatus();
  }
  if (f.type.size > kMaxElementBytes) {
    // Skipped or refused as the policy says; never inlined, which would ask libhdf5 for elements
    // of that size.
    const std::string reason = fmt::format("an element of {} bytes, more than the {} a scan takes",
                                           f.type.size, kMaxElementBytes);
    std::optional<Status> done = RefuseOrSkip(*context.options, *context.result, path, reason);
    if (done && done->ok()) return OkStatus();
    context.policy_error = true;
    return done ? *done : UnsupportedError("dataset /{}: {}", path, reason);
  }
  if (f.layout.layout_class == LayoutClass::kVirtual) {
    return HandleUnsupported(context, path, "virtual dataset layout");
  }
  if (f.numpy.type_class == TypeClass::kUnsupported) {
    return HandleUnsupported(context, path, f.numpy.unsupported_reason);
  }
  if (f.numpy.type_class == TypeClass::kVlenString ||
      f.numpy.type_class == TypeClass::kVlenSequence) {
    if (f.layout.layout_class != LayoutClass::kCompact && f.attributes.is_dimension_scale) {
      KERCHUNK_ASSIGN_OR_RETURN(bool has_data, HasStoredData(context, o, f));
      if (!has_data) return OkStatus();
    }
    return TranslateEmbedded(context, o, path, f).Annotate("dataset /{}", path);
  }
  if (f.layout.layout_class == LayoutClass::kCompact) return TranslateCompact(context, path, f);
  return TranslateStored(context, o, path, f);
}

// After the dataset, as scan_hdf5.cpp's oracle does: a root-group netCDF unlimited dimension.
void NoteUnlimitedDimension(NativeContext& context, const std::string& path,
                            const DatasetFacts& f) {
  if (path.find('/') != std::string::npos) return;
  if (IsUnlimitedDimensionScaleNative(f.space, f.attribute_list)) {
    context.result->unlimited_dims.push_back(path);
  }
}

// A dataset's facts are read once, for its translation and for the unlimited-dimension note.
Status TranslateAndNoteDataset(NativeContext& context, const DataObject& o,
                               const std::string& path) {
  KERCHUNK_ASSIGN_OR_RETURN(DatasetFacts f, ReadFacts(context, o).Annotate("dataset /{}", path));
  KERCHUNK_RETURN_IF_ERROR(TranslateDataset(context, o, path, f));
  if (context.fallback_reason.empty()) NoteUnlimitedDimension(context, path, f);
  return OkStatus();
}

}  // namespace

Status TranslateFileNative(NativeContext& context) {
  const File& file = *context.file;
  // libhdf5 refuses a file shorter than the end-of-file address its superblock records; so does
  // this reader, rather than translating a file whose tail (data, often) is missing.
  const uint64_t stored_eof = file.superblock().end_of_file_address;
  if (stored_eof != kUndefinedAddress && file.bytes().size() < stored_eof) {
    return DataLossError(
        "truncated file: the superblock records an end of file at {} bytes, the file has {}",
        stored_eof, file.bytes().size());
  }
  ObjectWalk walk(file);
  KERCHUNK_RETURN_IF_ERROR(walk.Visit(file.superblock().root_object_header_address, "", 0));
  for (const VisitedObject& v : walk.objects)
    context.object_paths.emplace(v.object.address, v.path);
  for (const VisitedObject& v : walk.objects) {
    switch (v.object.kind()) {
      case ObjectKind::kGroup:
        KERCHUNK_RETURN_IF_ERROR(TranslateGroup(context, v.object, v.path));
        break;
      case ObjectKind::kDataset:
        KERCHUNK_RETURN_IF_ERROR(TranslateAndNoteDataset(context, v.object, v.path));
        break;
      default:
        break;  // committed datatypes are not arrays
    }
    if (!context.fallback_reason.empty()) return OkStatus();
  }
  return OkStatus();
}

}  // namespace kerchunk::hdf5::internal
