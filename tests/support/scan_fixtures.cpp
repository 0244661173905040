#include "support/scan_fixtures.h"

#include <fmt/format.h>
#include <netcdf.h>

#include <vector>

#include "hdf5/h5_library.h"

namespace kerchunk::testing {
namespace {

// netCDF-C status -> Status with the library's message.
Status Nc(int rc, std::string_view what) {
  if (rc == NC_NOERR) return OkStatus();
  return InternalError("netCDF-C: {}: {}", what, nc_strerror(rc));
}

struct SeriesIds {
  int ncid = -1;
  int time = -1, lat = -1, lon = -1, crs = -1, tas = -1, pr = -1, time_centered = -1;
};

Status PutText(int ncid, int varid, const char* name, const std::string& text) {
  return Nc(nc_put_att_text(ncid, varid, name, text.size(), text.c_str()), name);
}

Status DefineCoordinates(const SeriesSpec& spec, SeriesIds& ids, int dims[3]) {
  int ncid = ids.ncid;
  KERCHUNK_RETURN_IF_ERROR(
      Nc(nc_def_dim(ncid, spec.time_dim.c_str(), NC_UNLIMITED, &dims[0]), "time dimension"));
  KERCHUNK_RETURN_IF_ERROR(Nc(nc_def_dim(ncid, "lat", spec.lat, &dims[1]), "lat dimension"));
  KERCHUNK_RETURN_IF_ERROR(Nc(nc_def_dim(ncid, "lon", spec.lon, &dims[2]), "lon dimension"));
  KERCHUNK_RETURN_IF_ERROR(
      Nc(nc_def_var(ncid, spec.time_dim.c_str(), NC_DOUBLE, 1, &dims[0], &ids.time), "time"));
  KERCHUNK_RETURN_IF_ERROR(PutText(ncid, ids.time, "units", "days since 2000-01-01"));
  KERCHUNK_RETURN_IF_ERROR(PutText(ncid, ids.time, "calendar", "standard"));
  if (spec.nemo_time) {
    KERCHUNK_RETURN_IF_ERROR(Nc(
        nc_def_var(ncid, "time_centered", NC_DOUBLE, 1, &dims[0], &ids.time_centered), "time_c"));
    KERCHUNK_RETURN_IF_ERROR(PutText(ncid, ids.time_centered, "units", "days since 2000-01-01"));
    KERCHUNK_RETURN_IF_ERROR(PutText(ncid, ids.time_centered, "calendar", "standard"));
  }
  KERCHUNK_RETURN_IF_ERROR(Nc(nc_def_var(ncid, "lat", NC_FLOAT, 1, &dims[1], &ids.lat), "lat"));
  KERCHUNK_RETURN_IF_ERROR(PutText(ncid, ids.lat, "units", "degrees_north"));
  KERCHUNK_RETURN_IF_ERROR(Nc(nc_def_var(ncid, "lon", NC_FLOAT, 1, &dims[2], &ids.lon), "lon"));
  KERCHUNK_RETURN_IF_ERROR(PutText(ncid, ids.lon, "units", "degrees_east"));
  KERCHUNK_RETURN_IF_ERROR(Nc(nc_def_var(ncid, "crs", NC_INT, 0, nullptr, &ids.crs), "crs"));
  KERCHUNK_RETURN_IF_ERROR(PutText(ncid, ids.crs, "grid_mapping_name", "latitude_longitude"));
  double radius = 6371000.0;
  return Nc(nc_put_att_double(ncid, ids.crs, "earth_radius", NC_DOUBLE, 1, &radius), "radius");
}

Status DefineData(const SeriesSpec& spec, SeriesIds& ids, const int dims[3]) {
  int ncid = ids.ncid;
  KERCHUNK_RETURN_IF_ERROR(Nc(nc_def_var(ncid, "tas", NC_FLOAT, 3, dims, &ids.tas), "tas"));
  KERCHUNK_RETURN_IF_ERROR(PutText(ncid, ids.tas, "units", "K"));
  KERCHUNK_RETURN_IF_ERROR(PutText(ncid, ids.tas, "grid_mapping", "crs"));
  KERCHUNK_RETURN_IF_ERROR(Nc(nc_def_var(ncid, "pr", NC_FLOAT, 3, dims, &ids.pr), "pr"));
  float fill = -999.0f;
  KERCHUNK_RETURN_IF_ERROR(
      Nc(nc_put_att_float(ncid, ids.pr, "_FillValue", NC_FLOAT, 1, &fill), "fill"));
  KERCHUNK_RETURN_IF_ERROR(PutText(ncid, ids.pr, "units", "kg m-2 s-1"));
  if (spec.netcdf4) {
    const size_t chunks[3] = {1, static_cast<size_t>((spec.lat + 1) / 2),
                              static_cast<size_t>((spec.lon + 1) / 2)};
    for (int var : {ids.tas, ids.pr}) {
      KERCHUNK_RETURN_IF_ERROR(Nc(nc_def_var_chunking(ncid, var, NC_CHUNKED, chunks), "chunks"));
      KERCHUNK_RETURN_IF_ERROR(Nc(nc_def_var_deflate(ncid, var, 1, 1, 4), "deflate"));
    }
  }
  KERCHUNK_RETURN_IF_ERROR(PutText(ncid, NC_GLOBAL, "title", "kerchunk scan test series"));
  if (spec.variant_label) {
    KERCHUNK_RETURN_IF_ERROR(
        PutText(ncid, NC_GLOBAL, "variant_label", fmt::format("r{}i1p1f1", spec.member + 1)));
  }
  return PutText(ncid, NC_GLOBAL, "Conventions", "CF-1.8");
}

Status WriteCoordinates(const SeriesSpec& spec, const SeriesIds& ids, int file) {
  std::vector<double> time(spec.times), counter(spec.times);
  for (int t = 0; t < spec.times; ++t) {
    time[t] = file * spec.times + t + 0.5 + spec.time_shift;
    counter[t] = t;
  }
  std::vector<float> lat(spec.lat), lon(spec.lon);
  for (int i = 0; i < spec.lat; ++i) lat[i] = -60.0f + 20.0f * static_cast<float>(i);
  for (int i = 0; i < spec.lon; ++i) lon[i] = 10.0f * static_cast<float>(i);
  const size_t start = 0, count = static_cast<size_t>(spec.times);
  KERCHUNK_RETURN_IF_ERROR(Nc(nc_put_vara_double(ids.ncid, ids.time, &start, &count,
                                                 spec.nemo_time ? counter.data() : time.data()),
                              "write time"));
  if (spec.nemo_time) {
    KERCHUNK_RETURN_IF_ERROR(Nc(
        nc_put_vara_double(ids.ncid, ids.time_centered, &start, &count, time.data()), "write tc"));
  }
  KERCHUNK_RETURN_IF_ERROR(Nc(nc_put_var_float(ids.ncid, ids.lat, lat.data()), "write lat"));
  KERCHUNK_RETURN_IF_ERROR(Nc(nc_put_var_float(ids.ncid, ids.lon, lon.data()), "write lon"));
  int crs = 0;
  return Nc(nc_put_var_int(ids.ncid, ids.crs, &crs), "write crs");
}

float TasValue(int member, int file, int t, int y, int x) {
  return 273.0f + static_cast<float>(member * 100 + file * 10 + t) + 0.1f * static_cast<float>(y) +
         0.01f * static_cast<float>(x);
}

// Writes tas fully and pr chunk by chunk, leaving the first chunk of every step unwritten when
// the spec asks for it (NetCDF-4 allocates chunks only when written).
Status WriteData(const SeriesSpec& spec, const SeriesIds& ids, int file) {
  const size_t plane = static_cast<size_t>(spec.lat) * static_cast<size_t>(spec.lon);
  std::vector<float> tas(plane * static_cast<size_t>(spec.times));
  for (int t = 0; t < spec.times; ++t)
    for (int y = 0; y < spec.lat; ++y)
      for (int x = 0; x < spec.lon; ++x)
        tas[(t * spec.lat + y) * spec.lon + x] = TasValue(spec.member, file, t, y, x);
  const size_t start[3] = {0, 0, 0};
  const size_t count[3] = {static_cast<size_t>(spec.times), static_cast<size_t>(spec.lat),
                           static_cast<size_t>(spec.lon)};
  KERCHUNK_RETURN_IF_ERROR(
      Nc(nc_put_vara_float(ids.ncid, ids.tas, start, count, tas.data()), "write tas"));
  const size_t half_lat = static_cast<size_t>((spec.lat + 1) / 2);
  const size_t half_lon = static_cast<size_t>((spec.lon + 1) / 2);
  bool skip_first = spec.netcdf4 && spec.unwritten_chunk;
  for (size_t t = 0; t < count[0]; ++t) {
    for (size_t y0 = 0; y0 < count[1]; y0 += half_lat) {
      for (size_t x0 = 0; x0 < count[2]; x0 += half_lon) {
        if (skip_first && y0 == 0 && x0 == 0) continue;
        const size_t s[3] = {t, y0, x0};
        const size_t c[3] = {1, std::min(half_lat, count[1] - y0),
                             std::min(half_lon, count[2] - x0)};
        std::vector<float> values(c[1] * c[2]);
        for (size_t i = 0; i < values.size(); ++i) {
          values[i] = 1e-5f * static_cast<float>((file + 1) * (t + 1)) * static_cast<float>(i % 7);
        }
        KERCHUNK_RETURN_IF_ERROR(
            Nc(nc_put_vara_float(ids.ncid, ids.pr, s, c, values.data()), "write pr"));
      }
    }
  }
  return OkStatus();
}

Result<std::string> WriteSeriesFile(const std::filesystem::path& dir, const SeriesSpec& spec,
                                    int file) {
  std::string path = (dir / fmt::format("{}_{:03}.nc", spec.prefix, file)).string();
  SeriesIds ids;
  int mode = NC_CLOBBER | (spec.netcdf4 ? NC_NETCDF4 : NC_64BIT_OFFSET);
  KERCHUNK_RETURN_IF_ERROR(Nc(nc_create(path.c_str(), mode, &ids.ncid), path));
  int dims[3];
  Status status = DefineCoordinates(spec, ids, dims);
  if (status.ok()) status = DefineData(spec, ids, dims);
  if (status.ok()) status = Nc(nc_enddef(ids.ncid), "enddef");
  if (status.ok()) status = WriteCoordinates(spec, ids, file);
  if (status.ok()) status = WriteData(spec, ids, file);
  Status closed = Nc(nc_close(ids.ncid), "close " + path);
  KERCHUNK_RETURN_IF_ERROR(status);
  KERCHUNK_RETURN_IF_ERROR(closed);
  return path;
}

}  // namespace

Result<std::vector<std::string>> WriteSeries(const std::filesystem::path& dir,
                                             const SeriesSpec& spec) {
  std::vector<std::string> paths;
  for (int file = spec.first_file; file < spec.first_file + spec.files; ++file) {
    KERCHUNK_ASSIGN_OR_RETURN(std::string path, WriteSeriesFile(dir, spec, file));
    paths.push_back(std::move(path));
  }
  return paths;
}

Result<std::string> WriteManyChunksHdf5(const std::filesystem::path& path, uint64_t chunks,
                                        uint64_t chunk_size) {
  using hdf5::Check;
  using hdf5::Handle;
  hdf5::SilenceLibraryErrors();
  KERCHUNK_ASSIGN_OR_RETURN(Handle fapl, Check(H5Pcreate(H5P_FILE_ACCESS), "fapl"));
  KERCHUNK_RETURN_IF_ERROR(
      Check(H5Pset_libver_bounds(fapl.get(), H5F_LIBVER_LATEST, H5F_LIBVER_LATEST), "libver"));
  KERCHUNK_ASSIGN_OR_RETURN(
      Handle file,
      Check(H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, fapl.get()), "create file"));
  const hsize_t dims[1] = {chunks * chunk_size};
  const hsize_t chunk[1] = {chunk_size};
  KERCHUNK_ASSIGN_OR_RETURN(Handle dcpl, Check(H5Pcreate(H5P_DATASET_CREATE), "dcpl"));
  KERCHUNK_RETURN_IF_ERROR(Check(H5Pset_chunk(dcpl.get(), 1, chunk), "chunk"));
  // Writing a million chunks through libhdf5 takes half a minute (per-chunk index and cache
  // work). Allocating them all at creation without filling them takes a moment, and gives the
  // implicit index, whose references the scan computes one by one all the same.
  KERCHUNK_RETURN_IF_ERROR(
      Check(H5Pset_alloc_time(dcpl.get(), H5D_ALLOC_TIME_EARLY), "allocation time"));
  KERCHUNK_RETURN_IF_ERROR(Check(H5Pset_fill_time(dcpl.get(), H5D_FILL_TIME_NEVER), "fill time"));
  KERCHUNK_ASSIGN_OR_RETURN(Handle space, Check(H5Screate_simple(1, dims, nullptr), "space"));
  KERCHUNK_ASSIGN_OR_RETURN(
      Handle dset, Check(H5Dcreate2(file.get(), "/many", H5T_STD_U8LE, space.get(), H5P_DEFAULT,
                                    dcpl.get(), H5P_DEFAULT),
                         "create /many"));
  return path.string();
}

}  // namespace kerchunk::testing
