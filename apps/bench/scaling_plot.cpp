// The plot of a scaling run: step times and index sizes against the number of references.
#include <fmt/format.h>

#include "bench/bench_internal.h"
#include "bench/svg_plot.h"
#include "kerchunk/util/file_io.h"

namespace kerchunk::bench::internal {
namespace {

Panel TimePanel(const BenchReport& report) {
  Panel panel{"time of each step", "chunk references", "seconds (median)", {}};
  for (const StepResult& first : report.sets.front().steps) {
    if (first.name == "lookup") continue;  // a fixed number of keys: latency, not growth
    Series series{first.name, {}};
    for (const SetReport& set : report.sets) {
      if (const StepResult* step = set.FindStep(first.name)) {
        series.points.emplace_back(static_cast<double>(set.chunks), step->median_seconds);
      }
    }
    panel.series.push_back(std::move(series));
  }
  return panel;
}

Panel SizePanel(const BenchReport& report) {
  Panel panel{"size of the index", "chunk references", "bytes", {}};
  auto add = [&](const char* label, auto size_of) {
    Series series{label, {}};
    for (const SetReport& set : report.sets) {
      std::optional<uint64_t> size = size_of(set.sizes);
      if (size) series.points.emplace_back(static_cast<double>(set.chunks), *size);
    }
    if (!series.points.empty()) panel.series.push_back(std::move(series));
  };
  add("Kerchunk JSON", [](const Sizes& s) { return std::optional<uint64_t>(s.json); });
  add("zstd -19 JSON", [](const Sizes& s) { return s.zstd; });
  add("gzip -6 JSON", [](const Sizes& s) { return s.gzip; });
  add("packed --readable",
      [](const Sizes& s) { return std::optional<uint64_t>(s.packed_readable); });
  add("packed", [](const Sizes& s) { return std::optional<uint64_t>(s.packed); });
  return panel;
}

}  // namespace

Status WriteScalingPlot(const BenchReport& report, const std::string& path) {
  if (report.sets.empty()) return OkStatus();
  const std::string title =
      fmt::format("kerchunk bench --scale, synthetic {}; dashed: linear growth; {}",
                  report.sets.front().source, MachineSummary(report.machine));
  return WriteFileAtomically(path, LogLogSvg(title, {TimePanel(report), SizePanel(report)}));
}

}  // namespace kerchunk::bench::internal
