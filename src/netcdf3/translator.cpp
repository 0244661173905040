#include "kerchunk/netcdf3/translator.h"

#include <algorithm>

#include "kerchunk/netcdf3/attributes.h"
#include "kerchunk/refs/zarr_metadata.h"

namespace kerchunk::netcdf3 {
namespace {

// Metadata documents are written with json::Value::Dump, which escapes non-ASCII as \uXXXX as
// zarr (json.dumps) does: zarr 2.x decodes .zattrs and .zarray as ASCII.
ZarrArrayMeta ArrayMeta(const Variable& v) {
  ZarrArrayMeta m;
  m.shape = v.shape;
  m.chunks = v.shape;
  if (v.is_record) m.chunks[0] = 1;
  // A NetCDF-3 dimension of length 0 is the record dimension, so only chunks[0] could be 0; the
  // guard keeps the grid valid for any header.
  for (auto& c : m.chunks) c = std::max<uint64_t>(c, 1);
  m.dtype = std::string(NumpyDtype(v.type));
  m.fill_value = FillValueJson(v);
  return m;
}

class ChunkWriter {
 public:
  ChunkWriter(std::span<const std::byte> file, uint64_t inline_threshold)
      : file_(file), inline_threshold_(inline_threshold) {}

  bool Inlines(uint64_t length) const { return length < inline_threshold_; }

  void Add(ArrayRefs& refs, uint64_t chunk, uint64_t offset, uint64_t length) {
    if (Inlines(length)) {
      auto bytes = file_.subspan(offset, length);
      refs.AddInline(chunk, {reinterpret_cast<const char*>(bytes.data()), bytes.size()}, true);
    } else {
      refs.AddRange(chunk, /*url=*/0, offset, length);
    }
  }

 private:
  std::span<const std::byte> file_;
  uint64_t inline_threshold_;
};

Status AddVariable(const Header& h, const Variable& v, ChunkWriter& chunks, ReferenceSet& out) {
  ZarrArrayMeta meta = ArrayMeta(v);
  KERCHUNK_ASSIGN_OR_RETURN(ChunkGrid grid, meta.Grid());
  out.entries.push_back({v.name + "/.zarray", EntryValue::Text(meta.ToJson().Dump())});
  out.entries.push_back(
      {v.name + "/.zattrs", EntryValue::Text(VariableAttributesJson(h, v).Dump())});
  ArrayRefs& refs = out.AddArray(v.name, std::move(grid));
  uint64_t count = refs.grid().num_chunks();
  if (count == 0 || v.slab_bytes == 0) return OkStatus();
  if (!v.is_record) {
    chunks.Add(refs, 0, v.begin, v.slab_bytes);
    return OkStatus();
  }
  // The grid is (num_records, 1, 1, ...), so record i is chunk i.
  uint64_t offset = v.begin;
  if (!chunks.Inlines(v.slab_bytes)) {
    // Records all alike: the columns grow once and are filled in one loop (a daily series'
    // files hold tens of thousands of records).
    const size_t first = refs.AddUnset(count);
    for (uint64_t i = 0; i < count; ++i, offset += h.record_size) {
      refs.SetRange(first + i, i, /*url=*/0, offset, v.slab_bytes);
    }
    return OkStatus();
  }
  refs.Reserve(count);
  for (uint64_t i = 0; i < count; ++i, offset += h.record_size) {
    chunks.Add(refs, i, offset, v.slab_bytes);
  }
  return OkStatus();
}

}  // namespace

Result<ReferenceSet> Translate(const Header& header, std::span<const std::byte> file,
                               std::string_view url, const TranslateOptions& options) {
  if (file.size() != header.file_size) {
    return InternalError("Translate: expected the {} bytes of the parsed file, got {}",
                         header.file_size, file.size());
  }
  ReferenceSet out;
  out.urls.Intern(url);
  out.entries.push_back({".zgroup", EntryValue::Text(R"({"zarr_format":2})")});
  out.entries.push_back({".zattrs", EntryValue::Text(AttributesJson(header.attributes).Dump())});
  ChunkWriter chunks(file, options.inline_threshold);
  for (const auto& v : header.variables) {
    KERCHUNK_RETURN_IF_ERROR(
        AddVariable(header, v, chunks, out).Annotate("variable \"{}\"", v.name));
  }
  return out;
}

Result<FileScanResult> TranslateNetcdf3(std::span<const std::byte> file, std::string_view file_name,
                                        std::string_view url, const FileScanOptions& options) {
  KERCHUNK_ASSIGN_OR_RETURN(Header header, ParseHeader(file).Annotate(file_name));
  FileScanResult result;
  KERCHUNK_ASSIGN_OR_RETURN(
      result.refs, Translate(header, file, url, {.inline_threshold = options.inline_threshold})
                       .Annotate(file_name));
  for (const auto& array : result.refs.arrays) {
    for (size_t i = 0; i < array.size(); ++i) {
      if (array.urls()[i] <= ArrayRefs::kMaxUrlId) result.referenced_bytes += array.lengths()[i];
    }
  }
  for (const auto& dimension : header.dimensions) {
    if (dimension.is_record()) result.unlimited_dims.push_back(dimension.name);
  }
  if (header.streaming) {
    result.warnings.push_back(
        fmt::format("{}: numrecs is STREAMING; {} complete records found from the file size",
                    file_name, header.num_records));
  }
  return result;
}

}  // namespace kerchunk::netcdf3
