#include "support/packed_fixtures.h"

#include <fmt/format.h>
#include <netcdf.h>

#include <algorithm>
#include <cmath>

namespace kerchunk::testing {
namespace {

Status Nc(int rc, std::string_view what) {
  if (rc == NC_NOERR) return OkStatus();
  return InternalError("netCDF-C: {}: {}", what, nc_strerror(rc));
}

template <typename T>
T Nth(const std::vector<T>& values, int file) {
  return values[std::min<size_t>(static_cast<size_t>(file), values.size() - 1)];
}

Status PutText(int ncid, int varid, const char* name, const std::string& text) {
  return Nc(nc_put_att_text(ncid, varid, name, text.size(), text.c_str()), name);
}

struct Ids {
  int ncid = -1;
  int time = -1, bnds = -1, lat = -1, lon = -1, t2m = -1;
};

std::string TimeUnits(const PackedSeriesSpec& spec, int file) {
  int day = spec.per_file_units ? 1 + file * spec.times : 1;
  return fmt::format("days since 2000-01-{:02}", day);
}

Status DefineTime(const PackedSeriesSpec& spec, int file, Ids& ids, int dims[3]) {
  int ncid = ids.ncid;
  KERCHUNK_RETURN_IF_ERROR(Nc(nc_def_dim(ncid, "time", NC_UNLIMITED, &dims[0]), "time dim"));
  KERCHUNK_RETURN_IF_ERROR(Nc(nc_def_var(ncid, "time", NC_DOUBLE, 1, &dims[0], &ids.time), "time"));
  KERCHUNK_RETURN_IF_ERROR(PutText(ncid, ids.time, "units", TimeUnits(spec, file)));
  KERCHUNK_RETURN_IF_ERROR(PutText(ncid, ids.time, "calendar", Nth(spec.calendar, file)));
  if (!spec.bounds) return OkStatus();
  KERCHUNK_RETURN_IF_ERROR(PutText(ncid, ids.time, "bounds", "time_bnds"));
  int nv = -1;
  KERCHUNK_RETURN_IF_ERROR(Nc(nc_def_dim(ncid, "nv", 2, &nv), "nv dim"));
  const int bdims[2] = {dims[0], nv};
  KERCHUNK_RETURN_IF_ERROR(
      Nc(nc_def_var(ncid, "time_bnds", NC_DOUBLE, 2, bdims, &ids.bnds), "time_bnds"));
  if (!spec.bounds_units) return OkStatus();
  KERCHUNK_RETURN_IF_ERROR(PutText(ncid, ids.bnds, "units", TimeUnits(spec, file)));
  return PutText(ncid, ids.bnds, "calendar", Nth(spec.calendar, file));
}

Status DefineData(const PackedSeriesSpec& spec, int file, Ids& ids, int dims[3]) {
  int ncid = ids.ncid;
  KERCHUNK_RETURN_IF_ERROR(Nc(nc_def_dim(ncid, "lat", spec.lat, &dims[1]), "lat dim"));
  KERCHUNK_RETURN_IF_ERROR(Nc(nc_def_dim(ncid, "lon", spec.lon, &dims[2]), "lon dim"));
  KERCHUNK_RETURN_IF_ERROR(Nc(nc_def_var(ncid, "lat", NC_FLOAT, 1, &dims[1], &ids.lat), "lat"));
  KERCHUNK_RETURN_IF_ERROR(Nc(nc_def_var(ncid, "lon", NC_FLOAT, 1, &dims[2], &ids.lon), "lon"));
  KERCHUNK_RETURN_IF_ERROR(Nc(nc_def_var(ncid, "t2m", NC_SHORT, 3, dims, &ids.t2m), "t2m"));
  if (spec.netcdf4) {
    const size_t chunks[3] = {1, static_cast<size_t>(spec.lat), static_cast<size_t>(spec.lon)};
    KERCHUNK_RETURN_IF_ERROR(Nc(nc_def_var_chunking(ncid, ids.t2m, NC_CHUNKED, chunks), "chunks"));
    KERCHUNK_RETURN_IF_ERROR(Nc(nc_def_var_deflate(ncid, ids.t2m, 1, 1, 4), "deflate"));
  }
  int16_t fill = Nth(spec.fill_value, file);
  KERCHUNK_RETURN_IF_ERROR(
      Nc(nc_put_att_short(ncid, ids.t2m, "_FillValue", NC_SHORT, 1, &fill), "_FillValue"));
  double scale = Nth(spec.scale_factor, file), offset = Nth(spec.add_offset, file);
  if (Nth(spec.float_attributes, file)) {
    float s = static_cast<float>(scale), o = static_cast<float>(offset);
    KERCHUNK_RETURN_IF_ERROR(
        Nc(nc_put_att_float(ncid, ids.t2m, "scale_factor", NC_FLOAT, 1, &s), "scale_factor"));
    KERCHUNK_RETURN_IF_ERROR(
        Nc(nc_put_att_float(ncid, ids.t2m, "add_offset", NC_FLOAT, 1, &o), "add_offset"));
  } else {
    KERCHUNK_RETURN_IF_ERROR(
        Nc(nc_put_att_double(ncid, ids.t2m, "scale_factor", NC_DOUBLE, 1, &scale), "scale"));
    KERCHUNK_RETURN_IF_ERROR(
        Nc(nc_put_att_double(ncid, ids.t2m, "add_offset", NC_DOUBLE, 1, &offset), "offset"));
  }
  return PutText(ncid, ids.t2m, "units", "K");
}

Status WriteValues(const PackedSeriesSpec& spec, int file, const Ids& ids) {
  const size_t n = static_cast<size_t>(spec.times);
  std::vector<double> time(n), bounds(2 * n);
  double first = spec.per_file_units ? 0 : file * spec.times;
  for (size_t t = 0; t < n; ++t) {
    time[t] = first + static_cast<double>(t) + 0.5;
    bounds[2 * t] = first + static_cast<double>(t);
    bounds[2 * t + 1] = first + static_cast<double>(t) + 1;
  }
  const size_t start[3] = {0, 0, 0};
  const size_t count[3] = {n, static_cast<size_t>(spec.lat), static_cast<size_t>(spec.lon)};
  KERCHUNK_RETURN_IF_ERROR(
      Nc(nc_put_vara_double(ids.ncid, ids.time, start, count, time.data()), "write time"));
  if (spec.bounds) {
    const size_t bcount[2] = {n, 2};
    KERCHUNK_RETURN_IF_ERROR(Nc(
        nc_put_vara_double(ids.ncid, ids.bnds, start, bcount, bounds.data()), "write time_bnds"));
  }
  std::vector<float> lat(count[1]), lon(count[2]);
  for (size_t i = 0; i < lat.size(); ++i) lat[i] = 50.0f + static_cast<float>(i);
  for (size_t i = 0; i < lon.size(); ++i) lon[i] = 5.0f + static_cast<float>(i);
  KERCHUNK_RETURN_IF_ERROR(Nc(nc_put_var_float(ids.ncid, ids.lat, lat.data()), "write lat"));
  KERCHUNK_RETURN_IF_ERROR(Nc(nc_put_var_float(ids.ncid, ids.lon, lon.data()), "write lon"));
  const double scale = Nth(spec.scale_factor, file), offset = Nth(spec.add_offset, file);
  std::vector<int16_t> packed(count[0] * count[1] * count[2]);
  size_t i = 0;
  for (int t = 0; t < spec.times; ++t) {
    for (int y = 0; y < spec.lat; ++y) {
      for (int x = 0; x < spec.lon; ++x, ++i) {
        if (y == 0 && x == 0) {
          packed[i] = Nth(spec.fill_value, file);
          continue;
        }
        double raw = std::round((PackedValue(file, t, y, x) - offset) / scale);
        packed[i] = static_cast<int16_t>(std::clamp(raw, -32000.0, 32000.0));
      }
    }
  }
  return Nc(nc_put_vara_short(ids.ncid, ids.t2m, start, count, packed.data()), "write t2m");
}

Result<std::string> WriteFile(const std::filesystem::path& dir, const PackedSeriesSpec& spec,
                              int file) {
  std::string path = (dir / fmt::format("{}_{:03}.nc", spec.prefix, file)).string();
  Ids ids;
  KERCHUNK_RETURN_IF_ERROR(
      Nc(nc_create(path.c_str(), NC_CLOBBER | (spec.netcdf4 ? NC_NETCDF4 : NC_64BIT_OFFSET),
                   &ids.ncid),
         path));
  int dims[3];
  Status status = DefineTime(spec, file, ids, dims);
  if (status.ok()) status = DefineData(spec, file, ids, dims);
  if (status.ok()) status = Nc(nc_enddef(ids.ncid), "enddef");
  if (status.ok()) status = WriteValues(spec, file, ids);
  Status closed = Nc(nc_close(ids.ncid), "close " + path);
  KERCHUNK_RETURN_IF_ERROR(status);
  KERCHUNK_RETURN_IF_ERROR(closed);
  return path;
}

}  // namespace

double PackedValue(int file, int t, int y, int x) {
  return 270.0 + 10.0 * file + t + 0.5 * y + 0.25 * x;
}

Result<std::vector<std::string>> WritePackedSeries(const std::filesystem::path& dir,
                                                   const PackedSeriesSpec& spec) {
  std::vector<std::string> paths;
  for (int file = 0; file < spec.files; ++file) {
    KERCHUNK_ASSIGN_OR_RETURN(std::string path, WriteFile(dir, spec, file));
    paths.push_back(std::move(path));
  }
  return paths;
}

}  // namespace kerchunk::testing
