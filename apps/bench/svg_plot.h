// A minimal log-log line chart in SVG, drawn by the toolkit itself so that the scaling plot
// needs no plotting program.
#pragma once

#include <string>
#include <utility>
#include <vector>

namespace kerchunk::bench::internal {

struct Series {
  std::string label;
  std::vector<std::pair<double, double>> points;  ///< (x, y), both > 0
};

struct Panel {
  std::string title;
  std::string x_label;
  std::string y_label;
  std::vector<Series> series;
};

/// An SVG document with the panels side by side, each with logarithmic axes (ticks at powers
/// of ten), one coloured polyline with markers per series, a legend, and a dashed grey line of
/// slope 1 through the first point of the first series as the yardstick of linear growth.
/// Points that are not > 0 are left out.
std::string LogLogSvg(const std::string& title, const std::vector<Panel>& panels);

}  // namespace kerchunk::bench::internal
