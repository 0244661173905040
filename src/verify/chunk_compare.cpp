// One chunk against the library: where it is stored, and the values of its elements.
#include <fmt/format.h>

#include <algorithm>

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

// "a/b" -> ("a/", "b"); "b" -> ("", "b").
std::pair<std::string, std::string> SplitPath(const std::string& path) {
  const size_t slash = path.rfind('/');
  if (slash == std::string::npos) return {"", path};
  return {path.substr(0, slash + 1), path.substr(slash + 1)};
}

// The file's decoding of the coordinate whose bounds the array is (nullopt when the index names
// none), read before the array's own dataset is locked.
Result<std::optional<CfDecoding>> CoordinateDecoding(SourceFiles& sources, uint32_t url,
                                                     const IndexView& view) {
  std::optional<CfDecoding> out;
  if (view.bounds_of.empty()) return out;
  KERCHUNK_RETURN_IF_ERROR(sources.With(url, view.bounds_of, [&](SourceDataset& ds) -> Status {
    KERCHUNK_ASSIGN_OR_RETURN(out, ds.Decoding());
    return OkStatus();
  }));
  return out;
}

// The dataset's own decoding, completed by its coordinate's as a reader completes it.
Result<CfDecoding> OwnDecoding(SourceDataset& ds, const std::optional<CfDecoding>& coordinate) {
  KERCHUNK_ASSIGN_OR_RETURN(CfDecoding own, ds.Decoding());
  if (coordinate) InheritTimeAttributes(*coordinate, own);
  return own;
}

// The stored numbers first (the library's read of the same elements), then, when they match,
// what a CF reader makes of them through the index's attributes and the file's.
Status CompareValues(SourceDataset& ds, const ArrayInfo& info, const ChunkRegion& global,
                     const ChunkRegion& local, const std::string& decoded,
                     const std::vector<std::optional<std::string>>* strings,
                     const CfDecoding& index, const CfDecoding& own, const std::string& file,
                     CaseLog& log, const std::string& key) {
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
  if (!diff || TimesInOtherUnits(index, own)) {
    return CompareDecoded(ds, info, index, own, global, local, decoded, expected, file, log, key);
  }
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

json::Value AttributesOf(const ReferenceSet& refs, const std::string& path) {
  if (const Entry* e = refs.FindEntry(path.empty() ? ".zattrs" : path + "/.zattrs")) {
    Result<json::Value> parsed = json::Value::Parse(e->value.data);
    if (parsed.ok()) return *std::move(parsed);
  }
  return json::Value();
}

IndexView IndexViewOf(const ReferenceSet& refs, const ArrayInfo& info) {
  IndexView view;
  view.decoding = IndexDecoding(AttributesOf(refs, info.path), *info.meta);
  if (!view.decoding.units.empty()) return view;
  const auto [group, name] = SplitPath(info.path);
  for (const ArrayRefs& other : refs.arrays) {
    if (other.path() == info.path || SplitPath(other.path()).first != group) continue;
    const json::Value attrs = AttributesOf(refs, other.path());
    const json::Value* bounds = attrs.is_object() ? attrs.Find("bounds") : nullptr;
    if (!bounds || !bounds->is_string() || bounds->as_string() != name) continue;
    CfDecoding coordinate;
    const json::Value* units = attrs.Find("units");
    const json::Value* calendar = attrs.Find("calendar");
    if (units && units->is_string()) coordinate.units = units->as_string();
    if (calendar && calendar->is_string()) coordinate.calendar = calendar->as_string();
    InheritTimeAttributes(coordinate, view.decoding);
    view.bounds_of = other.path();
    break;
  }
  return view;
}

void CompareWithSource(const ReferenceSet& refs, const ArrayInfo& info, const IndexView& view,
                       size_t i, const FileGeometry& geometry, uint32_t url,
                       const std::string& decoded,
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
  Result<std::optional<CfDecoding>> coordinate = CoordinateDecoding(sources, url, view);
  Status status =
      !coordinate.ok()
          ? coordinate.status()
          : sources.With(url, info.path, [&](SourceDataset& file) -> Status {
              LeadingDimsDataset ds(file, geometry.leading);
              KERCHUNK_ASSIGN_OR_RETURN(CfDecoding own, OwnDecoding(ds, *coordinate));
              const bool range = array.urls()[i] <= ArrayRefs::kMaxUrlId &&
                                 array.lengths()[i] != ArrayRefs::kWholeFileLength;
              if (range) {
                KERCHUNK_RETURN_IF_ERROR(CheckLocation(ds, local, array.offsets()[i],
                                                       array.lengths()[i], geometry.fletcher32,
                                                       refs.urls[url], log, key));
              }
              KERCHUNK_RETURN_IF_ERROR(CompareValues(ds, info, global, local, decoded, strings,
                                                     view.decoding, own, refs.urls[url], log, key));
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

bool CompareInlinePart(const ReferenceSet& refs, const ArrayInfo& info, const IndexView& view,
                       size_t i, const FileGeometry& geometry, uint32_t url,
                       const std::string& decoded, SourceFiles& sources, CaseLog& log) {
  const ArrayRefs& array = *info.refs;
  const std::string key = array.KeyPrefix() + array.grid().Key(array.chunk_index(i));
  const ChunkRegion chunk = RegionOf(*info.grid, array.chunk_index(i));
  const size_t rank = chunk.start.size();
  // The elements of the chunk that came from this file, in array and in file coordinates.
  ChunkRegion part = chunk, local = chunk;
  for (size_t d = 0; d < rank; ++d) {
    const uint64_t begin = std::max(chunk.start[d], geometry.origin[d]);
    const uint64_t end =
        std::min(chunk.start[d] + chunk.count[d], geometry.origin[d] + geometry.file_shape[d]);
    if (begin >= end) return false;
    part.start[d] = begin;
    part.count[d] = end - begin;
    local.start[d] = begin - geometry.origin[d];
    local.count[d] = end - begin;
  }
  // Those elements as a chunk of their own, so that the comparison of whole chunks applies.
  const uint64_t itemsize = info.dtype->itemsize;
  uint64_t elements = 1;
  for (uint64_t c : part.count) elements *= c;
  std::string bytes;
  bytes.reserve(elements * itemsize);
  for (uint64_t e = 0; e < elements; ++e) {
    const std::vector<uint64_t> at = Unravel(e, part.count);
    uint64_t linear = 0;
    for (size_t d = 0; d < rank; ++d) {
      linear = linear * info.meta->chunks[d] + (part.start[d] - chunk.start[d] + at[d]);
    }
    bytes.append(decoded, linear * itemsize, itemsize);
  }
  ArrayInfo part_info = info;
  part_info.meta->chunks = part.count;
  Result<std::optional<CfDecoding>> coordinate = CoordinateDecoding(sources, url, view);
  Status status = !coordinate.ok()
                      ? coordinate.status()
                      : sources.With(url, info.path, [&](SourceDataset& ds) -> Status {
                          KERCHUNK_ASSIGN_OR_RETURN(CfDecoding own, OwnDecoding(ds, *coordinate));
                          return CompareValues(ds, part_info, part, local, bytes, nullptr,
                                               view.decoding, own, refs.urls[url], log, key);
                        });
  if (status.code() == StatusCode::kUnsupported) {
    log.Skip(1, status.message());
  } else if (!status.ok()) {
    log.Fail(key, fmt::format("{}: cannot read elements {} from {}: {}", key, FormatRegion(local),
                              refs.urls[url], status.message()));
  }
  return true;
}

}  // namespace kerchunk::verify::internal
