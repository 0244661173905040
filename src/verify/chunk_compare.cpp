// One chunk against the library: where it is stored, and the values of its elements.
#include <fmt/format.h>

#include "kerchunk/json/json_value.h"
#include "verify/cf_compare.h"
#include "verify/chunk_region.h"
#include "verify/chunk_source.h"
#include "verify/leading_dims.h"

namespace kerchunk::verify::internal {
namespace {

std::string Coordinates(const std::vector<uint64_t>& v) {
  return fmt::format("({})", fmt::join(v, ", "));
}

// The library's record of the chunk against the reference's byte range.
Status CheckLocation(SourceDataset& ds, const ChunkRegion& local, uint64_t offset, uint64_t length,
                     bool fletcher32, const std::string& file, CaseLog& log,
                     const std::string& key) {
  KERCHUNK_ASSIGN_OR_RETURN(std::optional<StoredLocation> loc, ds.Locate(local.start));
  if (!loc) return OkStatus();
  const uint64_t expected = length + (fletcher32 ? 4 : 0);
  if (!loc->allocated) {
    log.Fail(key,
             fmt::format("{}: the reference points at bytes [{}, {}) of {}, but {} has no "
                         "chunk stored for elements {}",
                         key, offset, offset + length, file, ds.Describe(), FormatRegion(local)));
  } else if (loc->offset != offset || loc->size != expected) {
    log.Fail(key, fmt::format("{}: the reference says bytes [{}, {}) of {}, but {} stores the "
                              "chunk of elements {} at [{}, {}){}",
                              key, offset, offset + length, file, ds.Describe(),
                              FormatRegion(local), loc->offset, loc->offset + loc->size,
                              fletcher32 ? " (including its 4-byte fletcher32 checksum)" : ""));
  }
  return OkStatus();
}

// The index's CF decoding of the array, from its .zattrs.
CfDecoding IndexDecodingOf(const ReferenceSet& refs, const ArrayInfo& info) {
  json::Value attrs;
  if (const Entry* e = refs.FindEntry(info.path.empty() ? ".zattrs" : info.path + "/.zattrs")) {
    Result<json::Value> parsed = json::Value::Parse(e->value.data);
    if (parsed.ok()) attrs = *std::move(parsed);
  }
  return IndexDecoding(attrs, *info.meta);
}

// The stored numbers first (the library's read of the same elements), then, when they match,
// what a CF reader makes of them through the index's attributes and the file's.
Status CompareValues(SourceDataset& ds, const ArrayInfo& info, const ChunkRegion& global,
                     const ChunkRegion& local, const std::string& decoded,
                     const std::vector<std::optional<std::string>>* strings,
                     const CfDecoding& index, const std::string& file, CaseLog& log,
                     const std::string& key) {
  if (strings) {
    KERCHUNK_ASSIGN_OR_RETURN(auto expected, ds.ReadStrings(local.start, local.count));
    for (uint64_t e = 0; e < expected.size(); ++e) {
      const uint64_t at = ChunkOffsetOf(e, local.count, info.meta->chunks, 1);
      const std::optional<std::string>& got = at < strings->size() ? (*strings)[at] : std::nullopt;
      // libhdf5 gives a string never written as a null pointer, which h5py and netCDF read as
      // "": the two are the same value.
      if (got.value_or("") != expected[e].value_or("")) {
        std::vector<uint64_t> where = Unravel(e, local.count);
        for (size_t d = 0; d < where.size(); ++d) where[d] += global.start[d];
        log.Fail(key,
                 fmt::format("{}: element {} is {} in the decoded chunk but {} in {}", key,
                             Coordinates(where), got ? "\"" + *got + "\"" : "null",
                             expected[e] ? "\"" + *expected[e] + "\"" : "null", ds.Describe()));
        return OkStatus();
      }
    }
    return OkStatus();
  }
  std::string expected;
  KERCHUNK_RETURN_IF_ERROR(ds.Read(local.start, local.count, *info.dtype, expected));
  const uint64_t itemsize = info.dtype->itemsize;
  std::optional<uint64_t> diff =
      FirstDifference(decoded, info.meta->chunks, expected, local.count, itemsize);
  if (!diff) return CompareDecoded(ds, info, index, global, local, decoded, file, log, key);
  std::vector<uint64_t> where = Unravel(*diff, local.count);
  for (size_t d = 0; d < where.size(); ++d) where[d] += global.start[d];
  const std::string_view got = std::string_view(decoded).substr(
      ChunkOffsetOf(*diff, local.count, info.meta->chunks, itemsize), itemsize);
  log.Fail(key, fmt::format("{}: element {} is {} in the decoded chunk but {} in {} "
                            "(elements {} of the file)",
                            key, Coordinates(where), FormatElement(got, *info.dtype),
                            FormatElement(ElementAt(expected, *diff, itemsize), *info.dtype),
                            ds.Describe(), FormatRegion(local)));
  return OkStatus();
}

}  // namespace

void CompareWithSource(const ReferenceSet& refs, const ArrayInfo& info, size_t i,
                       const FileGeometry& geometry, uint32_t url, const std::string& decoded,
                       const std::vector<std::optional<std::string>>* strings, SourceFiles& sources,
                       CaseLog& log) {
  const ArrayRefs& array = *info.refs;
  const std::string key = array.KeyPrefix() + array.grid().Key(array.chunk_index(i));
  const ChunkRegion global = RegionOf(*info.grid, array.chunk_index(i));
  ChunkRegion local = global;
  for (size_t d = 0; d < local.start.size(); ++d) {
    if (global.start[d] < geometry.origin[d] ||
        global.start[d] - geometry.origin[d] + global.count[d] > geometry.file_shape[d]) {
      log.Fail(key,
               fmt::format("{}: elements {} lie outside the dataset in {} (shape {})", key,
                           FormatRegion(global), refs.urls[url], Coordinates(geometry.file_shape)));
      return;
    }
    local.start[d] -= geometry.origin[d];
  }
  const CfDecoding index = IndexDecodingOf(refs, info);
  Status status = sources.With(url, info.path, [&](SourceDataset& file) -> Status {
    LeadingDimsDataset ds(file, geometry.leading);
    const bool range = array.urls()[i] <= ArrayRefs::kMaxUrlId &&
                       array.lengths()[i] != ArrayRefs::kWholeFileLength;
    if (range) {
      KERCHUNK_RETURN_IF_ERROR(CheckLocation(ds, local, array.offsets()[i], array.lengths()[i],
                                             geometry.fletcher32, refs.urls[url], log, key));
    }
    KERCHUNK_RETURN_IF_ERROR(
        CompareValues(ds, info, global, local, decoded, strings, index, refs.urls[url], log, key));
    log.Examined();
    return OkStatus();
  });
  if (status.code() == StatusCode::kUnsupported) {
    log.Skip(1, status.message());
  } else if (!status.ok()) {
    log.Fail(key, fmt::format("{}: cannot read the chunk's elements {} from {}: {}", key,
                              FormatRegion(local), refs.urls[url], status.message()));
  }
}

}  // namespace kerchunk::verify::internal
