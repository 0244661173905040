#include "bench/svg_plot.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "kerchunk/util/xml.h"

namespace kerchunk::bench::internal {
namespace {

constexpr double kPanelWidth = 520, kPanelHeight = 400;
constexpr double kLeft = 70, kRight = 150, kTop = 40, kBottom = 50;  // margins inside a panel
constexpr const char* kColors[] = {"#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd",
                                   "#8c564b", "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"};

// The log10 range [lo, hi] covering every positive value of the panel, with a margin.
struct Range {
  double lo = std::numeric_limits<double>::max(), hi = std::numeric_limits<double>::lowest();
  void Add(double v) {
    if (v <= 0 || !std::isfinite(v)) return;
    lo = std::min(lo, std::log10(v));
    hi = std::max(hi, std::log10(v));
  }
  bool empty() const { return lo > hi; }
  void Widen() {
    if (empty()) lo = 0, hi = 1;
    const double margin = std::max(0.15, (1.0 - (hi - lo)) / 2);  // at least one decade shown
    lo -= margin;
    hi += margin;
  }
  // The powers of ten inside the range, for ticks.
  double first_tick() const { return std::ceil(lo); }
};

std::string PowerLabel(double exponent) {
  const int e = static_cast<int>(exponent);
  if (e >= 0 && e <= 3) return fmt::format("{}", static_cast<int>(std::pow(10, e)));
  return fmt::format("1e{}", e);
}

class PanelDrawer {
 public:
  PanelDrawer(const Panel& panel, double x0) : panel_(panel), x0_(x0) {
    for (const Series& s : panel.series) {
      for (auto [x, y] : s.points) {
        xr_.Add(x);
        yr_.Add(y);
      }
    }
    xr_.Widen();
    yr_.Widen();
  }

  std::string Draw() const {
    std::string svg =
        fmt::format(R"svg(<text x="{:.1f}" y="24" font-size="15" text-anchor="middle">{}</text>)svg"
                    "\n",
                    x0_ + kLeft + PlotWidth() / 2, XmlEscaped(panel_.title));
    svg += Axes();
    svg += Yardstick();
    for (size_t i = 0; i < panel_.series.size(); ++i) svg += Line(panel_.series[i], i);
    return svg;
  }

 private:
  double PlotWidth() const { return kPanelWidth - kLeft - kRight; }
  double PlotHeight() const { return kPanelHeight - kTop - kBottom; }
  double X(double v) const {
    return x0_ + kLeft + (std::log10(v) - xr_.lo) / (xr_.hi - xr_.lo) * PlotWidth();
  }
  double Y(double v) const {
    return kTop + PlotHeight() - (std::log10(v) - yr_.lo) / (yr_.hi - yr_.lo) * PlotHeight();
  }

  std::string Axes() const {
    const double left = x0_ + kLeft, bottom = kTop + PlotHeight();
    std::string svg = fmt::format(
        R"svg(<rect x="{:.1f}" y="{:.1f}" width="{:.1f}" height="{:.1f}" fill="none" stroke="#444"/>)svg"
        "\n",
        left, kTop, PlotWidth(), PlotHeight());
    for (double e = xr_.first_tick(); e <= xr_.hi; ++e) {
      const double x = X(std::pow(10, e));
      svg += fmt::format(
          R"svg(<line x1="{0:.1f}" y1="{1:.1f}" x2="{0:.1f}" y2="{2:.1f}" stroke="#ddd"/>)svg"
          R"svg(<text x="{0:.1f}" y="{3:.1f}" font-size="11" text-anchor="middle">{4}</text>)svg"
          "\n",
          x, kTop, bottom, bottom + 16, PowerLabel(e));
    }
    for (double e = yr_.first_tick(); e <= yr_.hi; ++e) {
      const double y = Y(std::pow(10, e));
      svg += fmt::format(
          R"svg(<line x1="{0:.1f}" y1="{1:.1f}" x2="{2:.1f}" y2="{1:.1f}" stroke="#ddd"/>)svg"
          R"svg(<text x="{3:.1f}" y="{4:.1f}" font-size="11" text-anchor="end">{5}</text>)svg"
          "\n",
          left, y, left + PlotWidth(), left - 6, y + 4, PowerLabel(e));
    }
    svg += fmt::format(
        R"svg(<text x="{:.1f}" y="{:.1f}" font-size="12" text-anchor="middle">{}</text>)svg"
        "\n",
        left + PlotWidth() / 2, bottom + 36, XmlEscaped(panel_.x_label));
    svg += fmt::format(
        R"svg(<text transform="translate({:.1f},{:.1f}) rotate(-90)" font-size="12" )svg"
        R"svg(text-anchor="middle">{}</text>)svg"
        "\n",
        x0_ + 18, kTop + PlotHeight() / 2, XmlEscaped(panel_.y_label));
    return svg;
  }

  // Slope 1 through the first point of the first series: parallel lines grow linearly.
  std::string Yardstick() const {
    if (panel_.series.empty() || panel_.series[0].points.empty()) return "";
    auto [x1, y1] = panel_.series[0].points.front();
    if (x1 <= 0 || y1 <= 0) return "";
    // Slope 1 in log-log, to the right edge or the top, whichever it meets first.
    const double decades = std::min(xr_.hi - std::log10(x1), yr_.hi - std::log10(y1));
    const double x2 = x1 * std::pow(10, decades), y2 = y1 * std::pow(10, decades);
    return fmt::format(
        R"svg(<line x1="{:.1f}" y1="{:.1f}" x2="{:.1f}" y2="{:.1f}" stroke="#999" )svg"
        R"svg(stroke-width="1.5" stroke-dasharray="6,4"/>)svg"
        "\n",
        X(x1), Y(y1), X(x2), Y(y2));
  }

  std::string Line(const Series& s, size_t index) const {
    const char* color = kColors[index % std::size(kColors)];
    std::string points, markers;
    for (auto [x, y] : s.points) {
      if (x <= 0 || y <= 0) continue;
      points += fmt::format("{:.1f},{:.1f} ", X(x), Y(y));
      markers += fmt::format(R"svg(<circle cx="{:.1f}" cy="{:.1f}" r="3" fill="{}"/>)svg", X(x),
                             Y(y), color);
    }
    const double legend_y = kTop + 8 + 18 * static_cast<double>(index);
    const double legend_x = x0_ + kLeft + PlotWidth() + 12;
    return fmt::format(
        R"svg(<polyline points="{}" fill="none" stroke="{}" stroke-width="2"/>{})svg"
        "\n"
        R"svg(<line x1="{:.1f}" y1="{:.1f}" x2="{:.1f}" y2="{:.1f}" stroke="{}" stroke-width="2"/>)svg"
        R"svg(<text x="{:.1f}" y="{:.1f}" font-size="12">{}</text>)svg"
        "\n",
        points, color, markers, legend_x, legend_y, legend_x + 18, legend_y, color, legend_x + 24,
        legend_y + 4, XmlEscaped(s.label));
  }

  const Panel& panel_;
  double x0_;
  Range xr_, yr_;
};

}  // namespace

std::string LogLogSvg(const std::string& title, const std::vector<Panel>& panels) {
  const double width = kPanelWidth * static_cast<double>(std::max<size_t>(1, panels.size()));
  const double height = kPanelHeight + 30;
  std::string svg = fmt::format(
      R"svg(<svg xmlns="http://www.w3.org/2000/svg" width="{0:.0f}" height="{1:.0f}" )svg"
      R"svg(viewBox="0 0 {0:.0f} {1:.0f}" font-family="sans-serif">)svg"
      "\n"
      R"svg(<rect width="100%" height="100%" fill="white"/>)svg"
      "\n"
      R"svg(<text x="{2:.1f}" y="{1:.0f}" font-size="12" text-anchor="middle" fill="#555">{3}</text>)svg"
      "\n",
      width, height - 8, width / 2, XmlEscaped(title));
  for (size_t i = 0; i < panels.size(); ++i) {
    svg += PanelDrawer(panels[i], kPanelWidth * static_cast<double>(i)).Draw();
  }
  return svg + "</svg>\n";
}

}  // namespace kerchunk::bench::internal
