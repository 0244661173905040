#include "kerchunk/bench/synthetic_set.h"

#include <algorithm>

#include "bench/random.h"
#include "kerchunk/bench/synthetic_refs.h"

namespace kerchunk::bench {
namespace {

constexpr uint64_t kChunkRows = 181, kChunkCols = 360;  // a quarter-degree grid's tile

SyntheticRefsOptions GeneratorOptions(const NetcdfSeriesOptions& o) {
  auto [rows, cols] = SquarestGrid(o.chunks_per_file);
  SyntheticRefsOptions g;
  g.files = o.files;
  g.steps_per_file = 1;
  g.variables = o.variables;
  g.spatial_shape = {rows * kChunkRows, cols * kChunkCols};
  g.spatial_chunks = {kChunkRows, kChunkCols};
  g.land_fraction = o.missing;
  g.missing = 0;  // --missing is the land share alone, as in WriteNetcdfSeries
  g.seed = o.seed;
  return g;
}

// One byte-range reference of a data variable, for re-laying files out in offset order.
struct Placed {
  uint32_t url;
  uint32_t array;
  uint64_t offset;
  uint64_t position;  // index in the array's columns
};

// Makes a share of the data chunks all-fill and moves every later chunk of the same file so
// that the bytes between references (headers, index nodes) keep their sizes.
void ApplyFillChunks(ReferenceSet& refs, double fill_probability, uint64_t seed) {
  std::vector<Placed> placed;
  std::vector<std::vector<uint64_t>> lengths(refs.arrays.size());
  internal::SplitMix64 rng(seed ^ 0xF111F111ull);
  for (uint32_t a = 0; a < refs.arrays.size(); ++a) {
    const ArrayRefs& array = refs.arrays[a];
    lengths[a].assign(array.lengths().begin(), array.lengths().end());
    const bool data = array.grid().rank() == 3;  // (time, y, x): not a coordinate
    for (size_t i = 0; i < array.size(); ++i) {
      if (array.urls()[i] > ArrayRefs::kMaxUrlId) continue;
      if (data && rng.Chance(fill_probability)) lengths[a][i] = kFillChunkLength;
      placed.push_back({array.urls()[i], a, array.offsets()[i], i});
    }
  }
  std::sort(placed.begin(), placed.end(), [](const Placed& x, const Placed& y) {
    return x.url != y.url ? x.url < y.url : x.offset < y.offset;
  });
  std::vector<std::vector<uint64_t>> offsets(refs.arrays.size());
  for (uint32_t a = 0; a < refs.arrays.size(); ++a) {
    offsets[a].assign(refs.arrays[a].offsets().begin(), refs.arrays[a].offsets().end());
  }
  uint64_t old_end = 0, new_end = 0;
  for (size_t k = 0; k < placed.size(); ++k) {
    const Placed& p = placed[k];
    const bool first_of_file = k == 0 || placed[k - 1].url != p.url;
    const uint64_t gap = first_of_file ? p.offset : p.offset - old_end;
    offsets[p.array][p.position] = (first_of_file ? 0 : new_end) + gap;
    old_end = p.offset + refs.arrays[p.array].lengths()[p.position];
    new_end = offsets[p.array][p.position] + lengths[p.array][p.position];
  }
  for (uint32_t a = 0; a < refs.arrays.size(); ++a) {
    const ArrayRefs& old = refs.arrays[a];
    ArrayRefs rebuilt(old.path(), old.grid());
    rebuilt.Reserve(old.size());
    for (size_t i = 0; i < old.size(); ++i) {
      if (old.urls()[i] > ArrayRefs::kMaxUrlId) {
        rebuilt.Add(old.chunk_index(i), old.Get(i));
      } else {
        rebuilt.AddRange(old.chunk_index(i), old.urls()[i], offsets[a][i], lengths[a][i]);
      }
    }
    refs.arrays[a] = std::move(rebuilt);
  }
}

// A plausible object-store prefix of exactly `n` characters (n >= 7), ending in '/'.
std::string UrlPrefix(size_t n) {
  static constexpr std::string_view kWords = "climate-data-archive/reanalysis/single-levels/";
  std::string prefix = "s3://";
  while (prefix.size() + 1 < n) prefix += kWords[(prefix.size() - 5) % kWords.size()];
  if (prefix.back() == '/') prefix.back() = 'x';  // no empty path segment
  prefix += '/';
  return prefix;
}

Status SetUrlLength(ReferenceSet& refs, uint32_t url_length) {
  for (uint32_t id = 0; id < refs.urls.size(); ++id) {
    const std::string& url = refs.urls[id];
    const std::string name = url.substr(url.rfind('/') + 1);
    if (url_length < name.size() + 7) {
      return InvalidArgumentError("--url-length: expected at least {} (s3://b/ + {}), got {}",
                                  name.size() + 7, name, url_length);
    }
    KERCHUNK_RETURN_IF_ERROR(refs.urls.Rename(id, UrlPrefix(url_length - name.size()) + name));
  }
  return OkStatus();
}

}  // namespace

Result<ReferenceSet> MakeSyntheticReferenceSet(const NetcdfSeriesOptions& options,
                                               uint32_t url_length) {
  KERCHUNK_RETURN_IF_ERROR(ValidateNetcdfSeriesOptions(options));
  ReferenceSet refs = SyntheticReferenceSet(GeneratorOptions(options));
  const double written = 1.0 - options.missing / static_cast<double>(options.variables);
  ApplyFillChunks(refs, options.gfactor / written, options.seed);
  if (url_length != 0) KERCHUNK_RETURN_IF_ERROR(SetUrlLength(refs, url_length));
  KERCHUNK_RETURN_IF_ERROR(refs.Finalize());
  return refs;
}

}  // namespace kerchunk::bench
