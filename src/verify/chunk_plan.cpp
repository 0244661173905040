#include "verify/chunk_plan.h"

#include <fmt/format.h>

#include <algorithm>
#include <set>

#include "kerchunk/json/json_value.h"
#include "kerchunk/util/parallel.h"

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
        geometry[w].push_back({NotFoundError("{} {}", file.path, file.error)});
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
