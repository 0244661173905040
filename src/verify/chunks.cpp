// --deep and --source: every (or a sample of) chunk read, decoded and compared with what the
// original file's library reads (decode, source).
#include "verify/chunks.h"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <cstring>
#include <map>
#include <set>
#include <unordered_map>

#include "kerchunk/codecs/fletcher32.h"
#include "kerchunk/io/byte_source.h"
#include "kerchunk/json/json_value.h"
#include "kerchunk/util/checked_math.h"
#include "kerchunk/util/parallel.h"
#include "kerchunk/util/progress.h"
#include "verify/files.h"

namespace kerchunk::verify::internal {
namespace {

// Chunks per work item: small enough to balance threads, large enough to amortise the
// per-item bookkeeping.
constexpr size_t kChunksPerItem = 64;
// An array with chunks in remote files is cut into larger items: each item's chunks of one file
// are fetched by coalesced requests, so an item is a few round trips whatever its chunk count;
// its stored bytes, held in memory while it is checked, stay under kRemoteItemBytes.
constexpr size_t kRemoteChunksPerItem = 8192;
constexpr uint64_t kRemoteItemBytes = uint64_t{64} << 20;

bool IsJson2(const ZarrArrayMeta& meta) {
  if (!meta.filters.is_array() || meta.filters.as_array().empty()) return false;
  const json::Value* id = meta.filters.as_array()[0].Find("id");
  return id && id->is_string() && id->as_string() == "json2";
}

struct WorkItem {
  size_t plan;
  size_t begin, end;
};

struct ItemResult {
  CaseLog decode;
  CaseLog source;
};

// The stored bytes (with any fletcher32 checksum) of a work item's chunks in remote files,
// fetched before the item is checked, by reference index; a failed fetch is every such
// chunk's error.
using Prefetched = std::unordered_map<size_t, Result<std::string>>;

class ChunkChecker {
 public:
  ChunkChecker(const ReferenceSet& refs, const ResolvedFiles& files,
               const ChunkCheckOptions& options)
      : refs_(refs), files_(files), options_(options), reader_(files), sources_(refs.urls, files) {}

  void Run(const WorkItem& item, ItemResult& result, Progress* progress);
  /// Cuts plan `p`'s chunks into work items (larger ones for chunks in remote files).
  void AddItems(size_t p, std::vector<WorkItem>& items) const;
  /// Plans the arrays before Run (see PlanArrays).
  void Plan(const std::vector<const ArrayInfo*>& arrays, unsigned threads,
            std::vector<CaseLog>& source_logs) {
    plans_ = PlanArrays(refs_, arrays, files_, options_.source, sources_, threads, source_logs);
  }
  const std::vector<ArrayPlan>& plans() const { return plans_; }

 private:
  void CheckChunk(const ArrayPlan& plan, size_t i, Prefetched& fetched, std::string& stored,
                  std::string& decoded, ItemResult& result);
  // Fetches the item's sampled chunks that lie in remote files: one source per file, its
  // neighbouring chunks coalesced into one request (io::ReadRanges). References the files
  // check rejected are left out (StoredBytes skips them).
  Prefetched FetchRemote(const ArrayPlan& plan, const WorkItem& item) const;
  bool Checked(const ArrayPlan& plan, size_t i) const {
    return Sampled(plan.ordinal, plan.info->refs->chunk_index(i), options_.sample, options_.seed);
  }
  // Whether reference i's stored bytes are followed by a fletcher32 checksum in its file.
  static bool HasFletcher32(const ArrayPlan& plan, uint32_t url, uint64_t length) {
    auto it = plan.files.find(url);
    return it != plan.files.end() && it->second.fletcher32 && length != ArrayRefs::kWholeFileLength;
  }
  // An inline chunk of an array several files fill: each file's elements against the file.
  void CompareInlineChunk(const ArrayPlan& plan, size_t i, const std::string& decoded,
                          CaseLog& log);
  // The stored bytes of reference i (inline data, a whole file or a range), without the
  // fletcher32 checksum, which is verified here. False when the chunk is not checked.
  bool StoredBytes(const ArrayPlan& plan, size_t i, const FileGeometry* geometry,
                   Prefetched& fetched, std::string& stored, CaseLog& log, const std::string& key);

  const ReferenceSet& refs_;
  const ResolvedFiles& files_;
  const ChunkCheckOptions& options_;
  FileReader reader_;
  SourceFiles sources_;
  std::vector<ArrayPlan> plans_;
};

Prefetched ChunkChecker::FetchRemote(const ArrayPlan& plan, const WorkItem& item) const {
  Prefetched out;
  if (!files_.access) return out;
  const ArrayRefs& array = *plan.info->refs;
  std::map<uint32_t, std::vector<std::pair<size_t, io::ByteRange>>> by_url;
  for (size_t i = item.begin; i < item.end; ++i) {
    const uint32_t url = array.urls()[i];
    if (url > ArrayRefs::kMaxUrlId || !files_.by_url[url].remote || !Checked(plan, i)) continue;
    const ResolvedFile& file = files_.by_url[url];
    uint64_t offset = array.offsets()[i], length = array.lengths()[i];
    if (length == ArrayRefs::kWholeFileLength) {
      offset = 0;
      length = file.size;
      if (file.usable() && length == 0) out.emplace(i, std::string());
    } else if (HasFletcher32(plan, url, length)) {
      length += codecs::kFletcher32Bytes;
    }
    if (!file.usable() || length == 0 || !RangeWithin(offset, length, file.size)) continue;
    by_url[url].push_back({i, {offset, length}});
  }
  for (const auto& [url, wanted] : by_url) {
    std::vector<io::ByteRange> ranges;
    for (const auto& w : wanted) ranges.push_back(w.second);
    Result<std::unique_ptr<io::ByteSource>> source = files_.access->Open(refs_.urls[url]);
    Result<std::vector<std::string>> bytes =
        source.ok() ? io::ReadRanges(**source, ranges)
                    : Result<std::vector<std::string>>(source.status());
    if (source.ok()) files_.access->Account((*source)->stats());
    for (size_t k = 0; k < wanted.size(); ++k) {
      out.emplace(wanted[k].first, bytes.ok() ? Result<std::string>(std::move((*bytes)[k]))
                                              : Result<std::string>(bytes.status()));
    }
  }
  return out;
}

bool ChunkChecker::StoredBytes(const ArrayPlan& plan, size_t i, const FileGeometry* geometry,
                               Prefetched& fetched, std::string& stored, CaseLog& log,
                               const std::string& key) {
  const ArrayRefs& array = *plan.info->refs;
  const uint32_t url = array.urls()[i];
  if (url > ArrayRefs::kMaxUrlId) {
    const uint64_t at = array.offsets()[i];
    stored.assign(array.inline_data(), at, array.lengths()[i]);
    return true;
  }
  const ResolvedFile& file = files_.by_url[url];
  const uint64_t offset = array.offsets()[i], length = array.lengths()[i];
  const bool whole = length == ArrayRefs::kWholeFileLength;
  if (!file.usable() || (!whole && !RangeWithin(offset, length, file.size)) ||
      (!whole && length == 0)) {
    log.Skip(1, "the files or ranges check rejected the reference");
    return false;
  }
  const bool fletcher32 = geometry && geometry->fletcher32 && !whole;
  const uint64_t extra = fletcher32 ? codecs::kFletcher32Bytes : 0;
  if (fletcher32 && !RangeWithin(offset, length + extra, file.size)) {
    log.Fail(key, fmt::format("{}: bytes [{}, {}) of {} are followed by the end of the file, "
                              "not by the chunk's fletcher32 checksum",
                              key, offset, offset + length, refs_.urls[url]));
    return false;
  }
  Status status;
  if (file.remote) {
    auto it = fetched.find(i);
    if (it == fetched.end()) {
      status = InternalError("chunk {} of {} was not fetched", i, refs_.urls[url]);
    } else if (it->second.ok()) {
      stored = std::move(*it->second);
    } else {
      status = it->second.status();
    }
  } else {
    status =
        whole ? reader_.ReadAll(url, stored) : reader_.Read(url, offset, length + extra, stored);
  }
  if (status.ok() && fletcher32) {
    status = codecs::VerifyFletcher32(stored);
    stored.resize(length);
  }
  if (!status.ok()) {
    log.Fail(key, fmt::format("{}: bytes [{}, {}) of {}: {}", key, offset, offset + length,
                              refs_.urls[url], status.message()));
    return false;
  }
  return true;
}

void ChunkChecker::CheckChunk(const ArrayPlan& plan, size_t i, Prefetched& fetched,
                              std::string& stored, std::string& decoded, ItemResult& result) {
  const ArrayInfo& info = *plan.info;
  const ArrayRefs& array = *info.refs;
  const uint32_t ref_url = array.urls()[i];
  const std::optional<uint32_t> url =
      ref_url <= ArrayRefs::kMaxUrlId ? std::optional<uint32_t>(ref_url) : plan.inline_url;
  const FileGeometry* geometry = nullptr;
  if (url) {
    auto it = plan.files.find(*url);
    if (it != plan.files.end()) geometry = &it->second;
  }
  const std::string key = array.KeyPrefix() + array.grid().Key(array.chunk_index(i));
  if (!StoredBytes(plan, i, geometry, fetched, stored, result.decode, key)) return;
  result.decode.Examined();
  const codecs::Pipeline& pipeline = *info.pipeline;
  const std::string where =
      ref_url <= ArrayRefs::kMaxUrlId
          ? fmt::format("bytes [{}, {}) of {}", array.offsets()[i],
                        array.offsets()[i] + stored.size(), refs_.urls[ref_url])
          : std::string("inline data");
  codecs::StringArray strings;
  if (pipeline.is_object()) {
    Result<codecs::StringArray> s = pipeline.DecodeStrings(stored, codecs::kMaxDecodedChunkBytes);
    uint64_t expected = 1;
    for (uint64_t c : info.meta->chunks) expected *= c;
    if (!s.ok() && IsJson2(*info.meta)) {
      // json2 may hold other JSON values than strings: check its form instead.
      if (Status form = CheckJson2Chunk(pipeline, stored, expected); !form.ok()) {
        result.decode.Fail(key,
                           fmt::format("{}: {} do not decode: {}", key, where, form.message()));
      } else if (options_.source) {
        result.source.Skip(1, "object items that are not strings are not compared");
      }
      return;
    }
    if (!s.ok() || s->values.size() != expected) {
      result.decode.Fail(
          key,
          fmt::format("{}: {} do not decode to {} strings: {}", key, where, expected,
                      s.ok() ? fmt::format("got {}", s->values.size()) : s.status().message()));
      return;
    }
    strings = *std::move(s);
  } else {
    Result<std::string> d = pipeline.Decode(stored, *info.decoded_size);
    if (!d.ok()) {
      result.decode.Fail(key, fmt::format("{}: {} do not decode to the chunk's {} bytes: {}", key,
                                          where, *info.decoded_size, d.status().message()));
      return;
    }
    decoded = *std::move(d);
  }
  if (!options_.source) return;
  if (!url && !plan.inline_files.empty() && !pipeline.is_object()) {
    CompareInlineChunk(plan, i, decoded, result.source);
  } else if (!url || !geometry) {
    result.source.Skip(1, "inline chunk of an array whose original file is not known");
  } else if (!geometry->error.ok()) {
    result.source.Skip(1, geometry->error.code() == StatusCode::kUnsupported
                              ? geometry->error.message()
                              : "the original file cannot be read (reported once per file)");
  } else if (info.meta->order != 'C') {
    result.source.Skip(1, "arrays in Fortran order are not compared");
  } else {
    CompareWithSource(refs_, info, plan.index, i, *geometry, *url, decoded,
                      pipeline.is_object() ? &strings.values : nullptr, sources_, result.source);
  }
}

void ChunkChecker::CompareInlineChunk(const ArrayPlan& plan, size_t i, const std::string& decoded,
                                      CaseLog& log) {
  bool compared = false;
  for (const auto& [url, geometry] : plan.inline_files) {
    compared |=
        CompareInlinePart(refs_, *plan.info, plan.index, i, geometry, url, decoded, sources_, log);
  }
  if (compared) {
    log.Examined();
  } else {
    log.Skip(1, "inline chunk of elements no file's place is known for");
  }
}

void ChunkChecker::AddItems(size_t p, std::vector<WorkItem>& items) const {
  const ArrayRefs& array = *plans_[p].info->refs;
  bool remote = false;
  for (size_t i = 0; i < array.size() && !remote; ++i) {
    const uint32_t url = array.urls()[i];
    remote = url <= ArrayRefs::kMaxUrlId && files_.by_url[url].remote;
  }
  if (!remote) {
    for (size_t b = 0; b < array.size(); b += kChunksPerItem) {
      items.push_back({p, b, std::min(array.size(), b + kChunksPerItem)});
    }
    return;
  }
  size_t begin = 0;
  uint64_t bytes = 0;
  for (size_t i = 0; i < array.size(); ++i) {
    const uint64_t length = array.lengths()[i];
    const uint64_t stored = length == ArrayRefs::kWholeFileLength ? 0 : length;
    if (i > begin && (i - begin == kRemoteChunksPerItem || bytes + stored > kRemoteItemBytes)) {
      items.push_back({p, begin, i});
      begin = i;
      bytes = 0;
    }
    bytes += stored;
  }
  if (begin < array.size()) items.push_back({p, begin, array.size()});
}

void ChunkChecker::Run(const WorkItem& item, ItemResult& result, Progress* progress) {
  const ArrayPlan& plan = plans_[item.plan];
  Prefetched fetched = FetchRemote(plan, item);
  std::string stored, decoded;
  for (size_t i = item.begin; i < item.end; ++i) {
    if (progress) progress->Advance();
    if (!Checked(plan, i)) {
      result.decode.Skip(1, "not in the --sample");
      if (options_.source) result.source.Skip(1, "not in the --sample");
      continue;
    }
    CheckChunk(plan, i, fetched, stored, decoded, result);
  }
}

}  // namespace

void CheckChunks(const ReferenceSet& refs, const Catalog& catalog, const ResolvedFiles& files,
                 const ChunkCheckOptions& options, const CheckContext& context, Report& report) {
  ChunkChecker checker(refs, files, options);
  std::vector<const ArrayInfo*> arrays;
  std::vector<CaseLog> decode_logs, source_logs;
  for (const ArrayInfo& info : catalog.arrays) {
    if (!info.refs) continue;
    arrays.push_back(&info);
    decode_logs.push_back(report.NewCase(Check::kDecode, info.path));
    source_logs.push_back(report.NewCase(Check::kSource, info.path));
    if (!info.valid || !info.pipeline) {
      const std::string why = info.valid ? "codecs not supported: " + info.pipeline_error
                                         : "invalid .zarray (see metadata)";
      decode_logs.back().Skip(info.refs->size(), why);
      if (options.source) source_logs.back().Skip(info.refs->size(), why);
    }
  }
  checker.Plan(arrays, context.threads, source_logs);
  std::vector<WorkItem> items;
  uint64_t total = 0;
  for (size_t p = 0; p < checker.plans().size(); ++p) {
    const ArrayInfo& info = *checker.plans()[p].info;
    if (!checker.plans()[p].decodable) continue;
    checker.AddItems(p, items);
    total += info.refs->size();
  }
  std::vector<ItemResult> results;
  results.reserve(items.size());
  for (const WorkItem& item : items) {
    results.push_back({report.NewCase(Check::kDecode, decode_logs[item.plan].name()),
                       report.NewCase(Check::kSource, source_logs[item.plan].name())});
  }
  Progress* progress = context.progress;
  if (progress) progress->Start(options.source ? "verify --source" : "verify --deep", total);
  ParallelFor(items.size(), context.threads,
              [&](size_t k) { checker.Run(items[k], results[k], progress); });
  if (progress) progress->Finish();
  for (size_t k = 0; k < items.size(); ++k) {
    decode_logs[items[k].plan].Merge(std::move(results[k].decode));
    source_logs[items[k].plan].Merge(std::move(results[k].source));
  }
  for (CaseLog& log : decode_logs) report.Add(std::move(log));
  report.MarkRun(Check::kDecode);
  if (options.source) {
    for (CaseLog& log : source_logs) report.Add(std::move(log));
    report.MarkRun(Check::kSource);
  }
}

}  // namespace kerchunk::verify::internal

namespace kerchunk::verify::internal {
namespace {

// One array's references into one file, to look up.
struct Task {
  size_t plan;
  UrlGroup group;
  bool only_url;  // the array references no other file
};

// The groups of one array; an array held inline only belongs to the index's one file, if the
// index names exactly one.
std::vector<UrlGroup> GroupsOf(const ArrayInfo& info, const ReferenceSet& refs) {
  std::vector<UrlGroup> groups = GroupByUrl(*info.refs);
  if (groups.empty() && refs.urls.size() == 1) {
    groups.push_back({0, 0, std::vector<uint64_t>(info.grid->rank(), 0), 0, false});
  }
  return groups;
}

// The array's _ARRAY_DIMENSIONS; empty when it has none (the xarray check reports that).
std::vector<std::string> DimensionsOf(const ReferenceSet& refs, const ArrayInfo& info) {
  std::vector<std::string> dims;
  const json::Value attrs = AttributesOf(refs, info.path);
  const json::Value* list = attrs.is_object() ? attrs.Find("_ARRAY_DIMENSIONS") : nullptr;
  if (!list || !list->is_array()) return dims;
  for (const json::Value& d : list->as_array()) {
    if (!d.is_string()) return {};
    dims.push_back(d.as_string());
  }
  return dims.size() == info.grid->rank() ? dims : std::vector<std::string>();
}

// Where each file's dataset starts along each dimension the index concatenates files on, from
// the arrays whose references point into the files.
using Placements = std::map<std::pair<uint32_t, std::string>, uint64_t>;

Placements PlacementsOf(const ReferenceSet& refs, const std::vector<ArrayPlan>& plans) {
  Placements out;
  for (const ArrayPlan& plan : plans) {
    if (!plan.decodable || plan.files.size() < 2) continue;
    const std::vector<std::string> dims = DimensionsOf(refs, *plan.info);
    if (dims.empty()) continue;
    for (const auto& [url, g] : plan.files) {
      if (!g.error.ok() || g.file_shape.size() != dims.size()) continue;
      for (size_t d = 0; d < dims.size(); ++d) {
        if (g.file_shape[d] < plan.info->grid->shape()[d])
          out.emplace(std::pair{url, dims[d]}, g.origin[d]);
      }
    }
  }
  return out;
}

// The place of each file's dataset in an array held inline (see ArrayPlan::inline_files).
// Files whose dataset is missing, of another rank, or not placed along a dimension on which it
// is shorter than the array are left out (their elements are then not compared).
void PlaceInlineArray(const ReferenceSet& refs, const Placements& placements, ArrayPlan& plan,
                      SourceFiles& sources) {
  const ArrayInfo& info = *plan.info;
  const std::vector<std::string> dims = DimensionsOf(refs, info);
  if (dims.empty()) return;
  std::set<uint32_t> urls;
  for (const auto& [where, origin] : placements) {
    if (std::find(dims.begin(), dims.end(), where.second) != dims.end()) urls.insert(where.first);
  }
  for (uint32_t url : urls) {
    FileGeometry g;
    Status status = sources.With(url, info.path, [&](SourceDataset& ds) -> Status {
      g.file_shape = ds.shape();
      return OkStatus();
    });
    if (!status.ok() || g.file_shape.size() != dims.size()) continue;
    g.origin.assign(dims.size(), 0);
    bool placed = true;
    for (size_t d = 0; d < dims.size() && placed; ++d) {
      if (g.file_shape[d] == info.grid->shape()[d]) continue;
      auto it = placements.find(std::pair{url, dims[d]});
      placed = it != placements.end();
      if (placed) g.origin[d] = it->second;
    }
    if (placed) plan.inline_files.emplace(url, std::move(g));
  }
}

}  // namespace

std::vector<ArrayPlan> PlanArrays(const ReferenceSet& refs,
                                  const std::vector<const ArrayInfo*>& arrays,
                                  const ResolvedFiles& files, bool source, SourceFiles& sources,
                                  unsigned threads, std::vector<CaseLog>& source_logs) {
  std::vector<ArrayPlan> plans(arrays.size());
  std::map<uint32_t, std::vector<Task>> by_url;
  for (size_t p = 0; p < arrays.size(); ++p) {
    ArrayPlan& plan = plans[p];
    plan.info = arrays[p];
    plan.ordinal = p;
    plan.decodable = plan.info->valid && plan.info->pipeline;
    if (!plan.decodable) continue;
    if (source) plan.index = IndexViewOf(refs, *plan.info);
    std::vector<UrlGroup> groups = GroupsOf(*plan.info, refs);
    if (groups.size() == 1) plan.inline_url = groups[0].url;
    for (UrlGroup& g : groups) {
      by_url[g.url].push_back({p, std::move(g), groups.size() == 1});
    }
  }
  std::vector<std::pair<uint32_t, std::vector<Task>>> work(by_url.begin(), by_url.end());
  std::vector<std::vector<FileGeometry>> geometry(work.size());
  std::vector<std::vector<CaseLog>> logs(work.size());
  ParallelFor(work.size(), threads, [&](size_t w) {
    const auto& [url, tasks] = work[w];
    const ResolvedFile& file = files.by_url[url];
    for (const Task& task : tasks) {
      const ArrayInfo& info = *plans[task.plan].info;
      logs[w].emplace_back(Check::kSource, info.path, SIZE_MAX);
      if (!file.usable()) {
        geometry[w].push_back(
            {NotFoundError("{} {}", file.local() ? file.path : refs.urls[url], file.error)});
        continue;
      }
      geometry[w].push_back(DescribeFile(info, task.group, task.only_url, source, sources,
                                         refs.urls, logs[w].back()));
      const Status& error = geometry[w].back().error;
      if (source && !error.ok() && error.code() != StatusCode::kUnsupported) {
        logs[w].back().Fail(refs.urls[url],
                            fmt::format("{}: cannot compare with the original file: {}", info.path,
                                        error.message()));
      }
    }
  });
  for (size_t w = 0; w < work.size(); ++w) {
    for (size_t t = 0; t < work[w].second.size(); ++t) {
      const size_t p = work[w].second[t].plan;
      plans[p].files.emplace(work[w].first, std::move(geometry[w][t]));
      source_logs[p].Merge(std::move(logs[w][t]));
    }
  }
  if (source && refs.urls.size() > 1) {
    const Placements placements = PlacementsOf(refs, plans);
    std::vector<size_t> inline_arrays;
    for (size_t p = 0; p < plans.size(); ++p) {
      if (plans[p].decodable && plans[p].files.empty() && !plans[p].info->refs->empty() &&
          !plans[p].info->pipeline->is_object()) {
        inline_arrays.push_back(p);
      }
    }
    ParallelFor(inline_arrays.size(), threads, [&](size_t k) {
      PlaceInlineArray(refs, placements, plans[inline_arrays[k]], sources);
    });
  }
  return plans;
}

}  // namespace kerchunk::verify::internal

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

namespace kerchunk::verify::internal {
namespace {

template <typename T>
T Load(std::string_view bytes, bool big) {
  std::string b(bytes.substr(0, sizeof(T)));
  if (big != (std::endian::native == std::endian::big)) std::reverse(b.begin(), b.end());
  T v;
  std::memcpy(&v, b.data(), sizeof(T));
  return v;
}

}  // namespace

ChunkRegion RegionOf(const ChunkGrid& grid, uint64_t linear) {
  ChunkRegion r;
  std::vector<uint64_t> coords(grid.rank());
  grid.Coords(linear, coords);
  for (size_t d = 0; d < grid.rank(); ++d) {
    const uint64_t start = coords[d] * grid.chunks()[d];
    r.start.push_back(start);
    r.count.push_back(std::min(grid.chunks()[d], grid.shape()[d] - start));
  }
  return r;
}

std::vector<uint64_t> Unravel(uint64_t index, const std::vector<uint64_t>& count) {
  std::vector<uint64_t> out(count.size());
  for (size_t d = count.size(); d-- > 0;) {
    out[d] = count[d] == 0 ? 0 : index % count[d];
    index = count[d] == 0 ? 0 : index / count[d];
  }
  return out;
}

uint64_t ChunkOffsetOf(uint64_t index, const std::vector<uint64_t>& count,
                       const std::vector<uint64_t>& chunk_shape, uint64_t itemsize) {
  const std::vector<uint64_t> coords = Unravel(index, count);
  uint64_t linear = 0;
  for (size_t d = 0; d < coords.size(); ++d) linear = linear * chunk_shape[d] + coords[d];
  return linear * itemsize;
}

std::string_view ElementAt(std::string_view bytes, uint64_t index, uint64_t itemsize) {
  return bytes.substr(index * itemsize, itemsize);
}

std::optional<uint64_t> FirstDifference(std::string_view decoded_chunk,
                                        const std::vector<uint64_t>& chunk_shape,
                                        std::string_view region_bytes,
                                        const std::vector<uint64_t>& count, uint64_t itemsize) {
  if (count.empty()) {
    return decoded_chunk.substr(0, itemsize) == region_bytes.substr(0, itemsize)
               ? std::nullopt
               : std::optional<uint64_t>(0);
  }
  // Compare row by row: a row is a run along the last dimension, contiguous in both buffers.
  const size_t rank = count.size();
  const uint64_t row = count[rank - 1] * itemsize;
  uint64_t rows = 1;
  for (size_t d = 0; d + 1 < rank; ++d) rows *= count[d];
  for (uint64_t r = 0; r < rows; ++r) {
    const uint64_t first = r * count[rank - 1];
    const uint64_t chunk_offset = ChunkOffsetOf(first, count, chunk_shape, itemsize);
    const std::string_view a = decoded_chunk.substr(chunk_offset, row);
    const std::string_view b = region_bytes.substr(first * itemsize, row);
    if (a == b) continue;
    for (uint64_t i = 0; i < count[rank - 1]; ++i) {
      if (a.substr(i * itemsize, itemsize) != b.substr(i * itemsize, itemsize)) return first + i;
    }
    return first;
  }
  return std::nullopt;
}

std::string FormatElement(std::string_view bytes, const DtypeInfo& dtype) {
  const bool big = dtype.order == '>';
  if (bytes.size() == dtype.itemsize) {
    switch (dtype.kind) {
      case 'f':
        if (dtype.itemsize == 4) return fmt::format("{}", Load<float>(bytes, big));
        if (dtype.itemsize == 8) return fmt::format("{}", Load<double>(bytes, big));
        break;
      case 'i':
        if (dtype.itemsize == 1) return fmt::format("{}", static_cast<int8_t>(bytes[0]));
        if (dtype.itemsize == 2) return fmt::format("{}", Load<int16_t>(bytes, big));
        if (dtype.itemsize == 4) return fmt::format("{}", Load<int32_t>(bytes, big));
        if (dtype.itemsize == 8) return fmt::format("{}", Load<int64_t>(bytes, big));
        break;
      case 'u':
        if (dtype.itemsize == 1) return fmt::format("{}", static_cast<uint8_t>(bytes[0]));
        if (dtype.itemsize == 2) return fmt::format("{}", Load<uint16_t>(bytes, big));
        if (dtype.itemsize == 4) return fmt::format("{}", Load<uint32_t>(bytes, big));
        if (dtype.itemsize == 8) return fmt::format("{}", Load<uint64_t>(bytes, big));
        break;
      default:
        break;
    }
  }
  std::string hex = "0x";
  for (size_t i = 0; i < std::min<size_t>(bytes.size(), 16); ++i) {
    hex += fmt::format("{:02x}", static_cast<uint8_t>(bytes[i]));
  }
  if (bytes.size() > 16) hex += "...";
  return hex;
}

std::string FormatRegion(const ChunkRegion& region) {
  std::vector<std::string> parts;
  for (size_t d = 0; d < region.start.size(); ++d) {
    parts.push_back(fmt::format("{}:{}", region.start[d], region.start[d] + region.count[d]));
  }
  return fmt::format("[{}]", fmt::join(parts, ", "));
}

}  // namespace kerchunk::verify::internal

// One chunk against the library: where it is stored, and the values of its elements.
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

namespace kerchunk::verify::internal {
namespace {

using json::Value;

// Counts the items of a nested list of depth `depth` whose lengths must follow `shape`.
Status CountItems(const Value& v, const std::vector<uint64_t>& shape, size_t depth,
                  uint64_t& count) {
  if (depth == shape.size()) {
    ++count;
    return OkStatus();
  }
  if (!v.is_array() || v.as_array().size() != shape[depth]) {
    return DataLossError("json2: expected a list of {} items at depth {}, got {}", shape[depth],
                         depth, v.Dump().substr(0, 60));
  }
  for (const Value& item : v.as_array()) {
    KERCHUNK_RETURN_IF_ERROR(CountItems(item, shape, depth + 1, count));
  }
  return OkStatus();
}

}  // namespace

Status CheckJson2Chunk(const codecs::Pipeline& pipeline, std::string_view stored,
                       uint64_t expected_items) {
  std::string buffer(stored);
  const auto& byte_codecs = pipeline.codecs();
  for (size_t k = byte_codecs.size(); k-- > 0;) {
    KERCHUNK_ASSIGN_OR_RETURN(
        buffer,
        byte_codecs[k]->Decode(buffer, codecs::DecodedSize::AtMost(codecs::kMaxDecodedChunkBytes)));
  }
  Result<Value> doc = Value::Parse(buffer);
  if (!doc.ok()) return DataLossError("json2: {}", doc.status().message());
  const Value::Array& items = doc->as_array();
  if (!doc->is_array() || items.size() < 2 || !items[items.size() - 2].is_string() ||
      !items.back().is_array()) {
    return DataLossError("json2: expected a list ending with the dtype and the shape");
  }
  std::vector<uint64_t> shape;
  for (const Value& n : items.back().as_array()) {
    if (n.type() != Value::Type::kInt || n.as_int() < 0) {
      return DataLossError("json2: expected non-negative integers in the shape, got {}",
                           items.back().Dump());
    }
    shape.push_back(static_cast<uint64_t>(n.as_int()));
  }
  uint64_t count = 0;
  if (shape.empty()) {
    count = items.size() - 2;
  } else {
    Value body = Value::MakeArray(Value::Array(items.begin(), items.end() - 2));
    KERCHUNK_RETURN_IF_ERROR(CountItems(body, shape, 0, count));
  }
  if (count != expected_items) {
    return DataLossError("json2: {} items, expected the chunk's {}", count, expected_items);
  }
  return OkStatus();
}

}  // namespace kerchunk::verify::internal

namespace kerchunk::verify::internal {

LeadingDimsDataset::LeadingDimsDataset(SourceDataset& inner, size_t leading)
    : inner_(inner), leading_(leading), shape_(leading, 1) {
  shape_.insert(shape_.end(), inner.shape().begin(), inner.shape().end());
}

Result<std::optional<StoredLocation>> LeadingDimsDataset::Locate(std::span<const uint64_t> start) {
  return inner_.Locate(start.subspan(leading_));
}

Result<std::optional<std::vector<uint64_t>>> LeadingDimsDataset::FindChunkAt(uint64_t offset,
                                                                             uint64_t limit) {
  KERCHUNK_ASSIGN_OR_RETURN(auto found, inner_.FindChunkAt(offset, limit));
  if (found) found->insert(found->begin(), leading_, 0);
  return found;
}

Status LeadingDimsDataset::Read(std::span<const uint64_t> start, std::span<const uint64_t> count,
                                const DtypeInfo& dtype, std::string& out) {
  return inner_.Read(start.subspan(leading_), count.subspan(leading_), dtype, out);
}

Result<std::vector<std::optional<std::string>>> LeadingDimsDataset::ReadStrings(
    std::span<const uint64_t> start, std::span<const uint64_t> count) {
  return inner_.ReadStrings(start.subspan(leading_), count.subspan(leading_));
}

Result<size_t> LeadingDims(size_t file_rank, const std::vector<uint64_t>& chunks) {
  if (file_rank > chunks.size()) {
    return InvalidArgumentError("rank {}, the zarr array {}", file_rank, chunks.size());
  }
  const size_t leading = chunks.size() - file_rank;
  for (size_t d = 0; d < leading; ++d) {
    if (chunks[d] != 1) {
      return InvalidArgumentError(
          "rank {}, the zarr array {}, whose leading dimension {} has chunk extent {}, not 1",
          file_rank, chunks.size(), d, chunks[d]);
    }
  }
  return leading;
}

}  // namespace kerchunk::verify::internal
