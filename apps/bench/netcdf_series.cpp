#include "kerchunk/bench/netcdf_series.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <numeric>
#include <system_error>

#include "bench/netcdf_file.h"
#include "bench/random.h"
#include "verify/netcdf_api.h"

namespace kerchunk::bench {
namespace {

using internal::NcCheck;
using internal::NcWriter;

constexpr float kFillValue = 1.0e20f;  // CMIP's _FillValue for float data

// Names of the data variables: the first three as in a reanalysis product, then var3, var4, ...
std::string VariableName(uint32_t v) {
  static const char* kKnown[] = {"t2m", "tp", "sst"};
  return v < 3 ? kKnown[v] : fmt::format("var{}", v);
}

// The shape of every file and which chunks are written, derived once from the options.
struct Layout {
  uint64_t rows = 0, cols = 0;  // spatial chunk grid
  uint64_t edge = 0;
  uint64_t lat = 0, lon = 0;  // rows * edge, cols * edge
  std::vector<bool> land;     // per spatial chunk: never written in the last variable
  double fill_probability = 0;
  uint64_t spatial() const { return rows * cols; }
};

double WrittenShare(const NetcdfSeriesOptions& o) {
  return 1.0 - o.missing / static_cast<double>(o.variables);
}

Layout MakeLayout(const NetcdfSeriesOptions& o) {
  Layout layout;
  std::tie(layout.rows, layout.cols) = SquarestGrid(o.chunks_per_file);
  layout.edge = o.chunk_edge;
  layout.lat = layout.rows * layout.edge;
  layout.lon = layout.cols * layout.edge;
  // Exactly round(missing * spatial) land chunks, drawn by a seeded shuffle.
  std::vector<uint64_t> order(layout.spatial());
  std::iota(order.begin(), order.end(), 0);
  internal::SplitMix64 rng(o.seed);
  for (uint64_t i = order.size(); i > 1; --i) std::swap(order[i - 1], order[rng.Below(i)]);
  layout.land.assign(layout.spatial(), false);
  auto land_count = static_cast<uint64_t>(std::llround(o.missing * layout.spatial()));
  for (uint64_t i = 0; i < land_count; ++i) layout.land[order[i]] = true;
  layout.fill_probability = o.gfactor / WrittenShare(o);
  return layout;
}

std::string DayFileName(uint32_t day) {
  using namespace std::chrono;
  year_month_day date{sys_days{year{2000} / January / 1} + days{day}};
  return fmt::format("day_{:04d}{:02d}{:02d}.nc", static_cast<int>(date.year()),
                     static_cast<unsigned>(date.month()), static_cast<unsigned>(date.day()));
}

struct FileIds {
  int time = -1, lat = -1, lon = -1;
  std::vector<int> vars;
};

Status DefineFile(NcWriter& nc, const Layout& layout, const NetcdfSeriesOptions& o, FileIds& ids) {
  const int ncid = nc.id();
  int dims[3];
  KERCHUNK_RETURN_IF_ERROR(NcCheck(nc_def_dim(ncid, "time", NC_UNLIMITED, &dims[0]), "time"));
  KERCHUNK_RETURN_IF_ERROR(NcCheck(nc_def_dim(ncid, "lat", layout.lat, &dims[1]), "lat"));
  KERCHUNK_RETURN_IF_ERROR(NcCheck(nc_def_dim(ncid, "lon", layout.lon, &dims[2]), "lon"));
  KERCHUNK_RETURN_IF_ERROR(
      NcCheck(nc_def_var(ncid, "time", NC_DOUBLE, 1, &dims[0], &ids.time), "def time"));
  KERCHUNK_RETURN_IF_ERROR(nc.PutText(ids.time, "units", "days since 2000-01-01"));
  KERCHUNK_RETURN_IF_ERROR(nc.PutText(ids.time, "calendar", "standard"));
  KERCHUNK_RETURN_IF_ERROR(
      NcCheck(nc_def_var(ncid, "lat", NC_FLOAT, 1, &dims[1], &ids.lat), "def lat"));
  KERCHUNK_RETURN_IF_ERROR(nc.PutText(ids.lat, "units", "degrees_north"));
  KERCHUNK_RETURN_IF_ERROR(
      NcCheck(nc_def_var(ncid, "lon", NC_FLOAT, 1, &dims[2], &ids.lon), "def lon"));
  KERCHUNK_RETURN_IF_ERROR(nc.PutText(ids.lon, "units", "degrees_east"));
  const size_t chunk[3] = {1, layout.edge, layout.edge};
  for (uint32_t v = 0; v < o.variables; ++v) {
    int var = -1;
    const std::string name = VariableName(v);
    KERCHUNK_RETURN_IF_ERROR(
        NcCheck(nc_def_var(ncid, name.c_str(), NC_FLOAT, 3, dims, &var), "def " + name));
    KERCHUNK_RETURN_IF_ERROR(NcCheck(nc_def_var_chunking(ncid, var, NC_CHUNKED, chunk), name));
    KERCHUNK_RETURN_IF_ERROR(NcCheck(nc_def_var_deflate(ncid, var, 1, 1, 4), name));
    KERCHUNK_RETURN_IF_ERROR(nc.PutFloat(var, "_FillValue", kFillValue));
    KERCHUNK_RETURN_IF_ERROR(nc.PutText(var, "units", v == 1 ? "m" : "K"));
    ids.vars.push_back(var);
  }
  KERCHUNK_RETURN_IF_ERROR(nc.PutText(NC_GLOBAL, "Conventions", "CF-1.8"));
  KERCHUNK_RETURN_IF_ERROR(nc.PutText(NC_GLOBAL, "source", "kerchunk bench synthetic series"));
  return NcCheck(nc_enddef(ncid), "enddef");
}

Status WriteCoordinates(NcWriter& nc, const Layout& layout, const FileIds& ids, uint32_t day) {
  const size_t start = 0, count = 1;
  const double time = day + 0.5;
  KERCHUNK_RETURN_IF_ERROR(
      NcCheck(nc_put_vara_double(nc.id(), ids.time, &start, &count, &time), "write time"));
  std::vector<float> lat(layout.lat), lon(layout.lon);
  for (size_t i = 0; i < lat.size(); ++i) lat[i] = -90.0f + 180.0f * (i + 0.5f) / lat.size();
  for (size_t i = 0; i < lon.size(); ++i) lon[i] = 360.0f * i / lon.size();
  KERCHUNK_RETURN_IF_ERROR(NcCheck(nc_put_var_float(nc.id(), ids.lat, lat.data()), "write lat"));
  return NcCheck(nc_put_var_float(nc.id(), ids.lon, lon.data()), "write lon");
}

// One chunk's values: all fill, or a smooth field plus noise of a per-chunk amplitude (from
// 0.02 to 5 K, log-uniform), rounded to 0.01 as packed products are, so that compressed
// lengths vary from chunk to chunk.
void ChunkValues(internal::SplitMix64& rng, bool fill, uint64_t row, uint64_t col, uint32_t var,
                 uint64_t edge, std::vector<float>& values) {
  if (fill) {
    std::fill(values.begin(), values.end(), kFillValue);
    return;
  }
  const double amplitude = 0.02 * std::exp(rng.Uniform() * std::log(250.0));
  for (uint64_t y = 0; y < edge; ++y) {
    const double base = 250.0 + 10.0 * var + 30.0 * std::sin(0.01 * (row * edge + y));
    for (uint64_t x = 0; x < edge; ++x) {
      double value = base + 5.0 * std::cos(0.01 * (col * edge + x)) + amplitude * rng.Noise();
      values[y * edge + x] = static_cast<float>(std::round(value * 100.0) / 100.0);
    }
  }
}

// Writes one variable chunk by chunk (netCDF-4 allocates a chunk only when it is written) and
// returns how many chunks were written.
Result<uint64_t> WriteVariable(NcWriter& nc, const Layout& layout, const NetcdfSeriesOptions& o,
                               int varid, uint32_t v, uint32_t day) {
  const bool has_land = v + 1 == o.variables;
  std::vector<float> values(layout.edge * layout.edge);
  uint64_t written = 0;
  for (uint64_t p = 0; p < layout.spatial(); ++p) {
    if (has_land && layout.land[p]) continue;
    const uint64_t row = p / layout.cols, col = p % layout.cols;
    internal::SplitMix64 rng =
        internal::StreamFor(o.seed, (uint64_t{day} * o.variables + v) * layout.spatial() + p);
    ChunkValues(rng, rng.Chance(layout.fill_probability), row, col, v, layout.edge, values);
    const size_t start[3] = {0, row * layout.edge, col * layout.edge};
    const size_t count[3] = {1, layout.edge, layout.edge};
    KERCHUNK_RETURN_IF_ERROR(NcCheck(nc_put_vara_float(nc.id(), varid, start, count, values.data()),
                                     "write " + VariableName(v)));
    ++written;
  }
  return written;
}

Status WriteDay(const std::string& path, const Layout& layout, const NetcdfSeriesOptions& o,
                uint32_t day, std::vector<uint64_t>& chunks_written) {
  KERCHUNK_ASSIGN_OR_RETURN(NcWriter nc, NcWriter::Create(path));
  FileIds ids;
  KERCHUNK_RETURN_IF_ERROR(DefineFile(nc, layout, o, ids).Annotate(path));
  KERCHUNK_RETURN_IF_ERROR(WriteCoordinates(nc, layout, ids, day).Annotate(path));
  for (uint32_t v = 0; v < o.variables; ++v) {
    KERCHUNK_ASSIGN_OR_RETURN(uint64_t written,
                              WriteVariable(nc, layout, o, ids.vars[v], v, day).Annotate(path));
    chunks_written[v] += written;
  }
  return nc.Close();
}

}  // namespace

std::pair<uint64_t, uint64_t> SquarestGrid(uint64_t n) {
  uint64_t rows = 1;
  for (uint64_t r = 1; r * r <= n; ++r) {
    if (n % r == 0) rows = r;
  }
  return {rows, n == 0 ? 0 : n / rows};
}

Status ValidateNetcdfSeriesOptions(const NetcdfSeriesOptions& o) {
  if (o.files == 0) return InvalidArgumentError("files: expected at least 1, got 0");
  if (o.chunks_per_file == 0) return InvalidArgumentError("chunks: expected at least 1, got 0");
  if (o.variables == 0) return InvalidArgumentError("--vars: expected at least 1, got 0");
  if (o.chunk_edge == 0) return InvalidArgumentError("chunk edge: expected at least 1, got 0");
  if (!(o.missing >= 0 && o.missing < 1)) {
    return InvalidArgumentError("--missing: expected a share in [0, 1), got {}", o.missing);
  }
  if (!(o.gfactor >= 0 && o.gfactor <= WrittenShare(o))) {
    return InvalidArgumentError(
        "--gfactor: expected a share in [0, {:.4f}] (the share of chunks written with "
        "--missing {} over {} variables), got {}",
        WrittenShare(o), o.missing, o.variables, o.gfactor);
  }
  return OkStatus();
}

Result<NetcdfSeries> WriteNetcdfSeries(const std::filesystem::path& dir,
                                       const NetcdfSeriesOptions& options) {
  KERCHUNK_RETURN_IF_ERROR(ValidateNetcdfSeriesOptions(options));
  auto start = std::chrono::steady_clock::now();
  std::error_code ec;
  std::filesystem::create_directories(dir, ec);
  if (ec) return IoError("{}: cannot create directory: {}", dir.string(), ec.message());
  const Layout layout = MakeLayout(options);
  NetcdfSeries series;
  series.chunks_written.assign(options.variables, 0);
  for (uint32_t v = 0; v < options.variables; ++v) {
    series.variable_names.push_back(VariableName(v));
  }
  for (uint32_t day = 0; day < options.files; ++day) {
    std::string path = (dir / DayFileName(day)).string();
    KERCHUNK_RETURN_IF_ERROR(WriteDay(path, layout, options, day, series.chunks_written));
    series.total_bytes += std::filesystem::file_size(path, ec);
    series.paths.push_back(std::move(path));
  }
  series.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return series;
}

}  // namespace kerchunk::bench
