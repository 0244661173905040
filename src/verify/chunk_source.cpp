#include "verify/chunk_source.h"

#include <fmt/format.h>

#include <map>

#include "verify/chunk_region.h"
#include "verify/leading_dims.h"

namespace kerchunk::verify::internal {
namespace {

// Chunks FindChunkAt scans at most: libhdf5 1.10 looks each index position up from the start,
// so the scan is quadratic; it only runs when a file's first chunk is unwritten.
constexpr uint64_t kChunkScanLimit = 20000;

std::string ChunkKey(const ArrayRefs& array, size_t i) {
  return array.KeyPrefix() + array.grid().Key(array.chunk_index(i));
}

// The element offset of the file's dataset in the zarr array, from its first chunk.
Status FindOrigin(const ArrayInfo& info, const UrlGroup& group, SourceDataset& ds,
                  FileGeometry& g) {
  const ChunkGrid& grid = *info.grid;
  const size_t rank = grid.rank();
  g.origin.assign(rank, 0);
  bool combined = false;
  for (size_t d = 0; d < rank; ++d) {
    if (g.file_shape[d] < grid.shape()[d]) {
      g.origin[d] = group.min_coords[d] * grid.chunks()[d];
      combined = true;
    }
  }
  if (!combined || !group.has_first_at_min) return OkStatus();
  // Where the library keeps the first chunk tells whether the guess is right: the file's first
  // chunk may be unwritten, in which case its smallest referenced chunk lies further in.
  const ArrayRefs& array = *info.refs;
  const uint64_t offset = array.offsets()[group.first_at_min];
  ChunkRegion first = RegionOf(grid, array.chunk_index(group.first_at_min));
  std::vector<uint64_t> local(rank);
  for (size_t d = 0; d < rank; ++d) local[d] = first.start[d] - g.origin[d];
  KERCHUNK_ASSIGN_OR_RETURN(std::optional<StoredLocation> loc, ds.Locate(local));
  if (!loc || (loc->allocated && loc->offset == offset)) return OkStatus();
  KERCHUNK_ASSIGN_OR_RETURN(std::optional<std::vector<uint64_t>> found,
                            ds.FindChunkAt(offset, kChunkScanLimit));
  if (!found) {
    return DataLossError("{} has no chunk at byte {}, where {} points", ds.Describe(), offset,
                         ChunkKey(array, group.first_at_min));
  }
  for (size_t d = 0; d < rank; ++d) g.origin[d] = first.start[d] - (*found)[d];
  return OkStatus();
}

}  // namespace

std::vector<UrlGroup> GroupByUrl(const ArrayRefs& array) {
  std::map<uint32_t, UrlGroup> groups;
  const ChunkGrid& grid = array.grid();
  std::vector<uint64_t> coords(grid.rank());
  for (size_t i = 0; i < array.size(); ++i) {
    const uint32_t url = array.urls()[i];
    if (url > ArrayRefs::kMaxUrlId) continue;
    grid.Coords(array.chunk_index(i), coords);
    UrlGroup& g = groups[url];
    if (g.count++ == 0) {
      g.url = url;
      g.min_coords = coords;
    }
    for (size_t d = 0; d < coords.size(); ++d)
      g.min_coords[d] = std::min(g.min_coords[d], coords[d]);
  }
  std::vector<UrlGroup> out;
  for (auto& [url, g] : groups) out.push_back(std::move(g));
  // A reference at the minimal coordinates (chunks are sorted, so the first one found).
  for (UrlGroup& g : out) {
    for (size_t i = 0; i < array.size() && !g.has_first_at_min; ++i) {
      if (array.urls()[i] != g.url || array.lengths()[i] == ArrayRefs::kWholeFileLength) continue;
      grid.Coords(array.chunk_index(i), coords);
      if (coords == g.min_coords) {
        g.first_at_min = i;
        g.has_first_at_min = true;
      }
    }
  }
  return out;
}

FileGeometry DescribeFile(const ArrayInfo& info, const UrlGroup& group, bool only_url, bool source,
                          SourceFiles& sources, const UrlTable& urls, CaseLog& log) {
  FileGeometry g;
  g.error = sources.With(group.url, info.path, [&](SourceDataset& file) -> Status {
    g.fletcher32 = file.fletcher32();
    if (!source) return OkStatus();
    Result<size_t> leading = LeadingDims(file.shape().size(), info.grid->chunks());
    if (!leading.ok())
      return DataLossError("{} has {}", file.Describe(), leading.status().message());
    g.leading = *leading;
    LeadingDimsDataset ds(file, g.leading);  // members of a new dimension: see leading_dims.h
    g.file_shape = ds.shape();
    if (g.file_shape.size() != info.grid->rank()) {
      return DataLossError("{} has rank {}, the zarr array {}", ds.Describe(), g.file_shape.size(),
                           info.grid->rank());
    }
    // An array held inline whose shape is not the dataset's holds other files' elements too
    // (MultiZarrToZarr inlines small chunks of every file, and the index may then name only the
    // first file): which elements are this file's is not known.
    if (group.count == 0 && g.file_shape != info.grid->shape()) {
      return UnsupportedError(
          "inline chunks of an array larger than {} in the only file the index names (shape "
          "{}): the other files' elements cannot be placed",
          ds.Describe(), fmt::format("({})", fmt::join(g.file_shape, ", ")));
    }
    KERCHUNK_RETURN_IF_ERROR(FindOrigin(info, group, ds, g));
    // A chunk the file has and the index lacks reads as the fill value: data silently lost.
    KERCHUNK_ASSIGN_OR_RETURN(std::optional<uint64_t> allocated, ds.CountChunks());
    if (only_url && allocated && *allocated > info.refs->size() &&
        g.file_shape == info.grid->shape()) {
      log.Fail(info.path,
               fmt::format("{}: {} stores {} chunks, but the index references {} "
                           "(the others would read as the fill value)",
                           urls[group.url], ds.Describe(), *allocated, info.refs->size()));
    }
    return OkStatus();
  });
  if (!g.error.ok()) g.error.Annotate(urls[group.url]);
  return g;
}

}  // namespace kerchunk::verify::internal
