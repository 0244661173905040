#include "verify/chunk_plan.h"

#include <fmt/format.h>

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
  return plans;
}

}  // namespace kerchunk::verify::internal
