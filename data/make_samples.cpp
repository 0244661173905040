// kerchunk_make_samples DIR: writes the project's small sample files into DIR with the netCDF-C
// and HDF5 C libraries:
//   daily_20200101.nc, daily_20200102.nc, daily_20200103.nc
//       a NetCDF-4 daily series: time (unlimited, 4 steps a day), lat, lon, a scalar crs,
//       tas(time, lat, lon) float and pr(time, lat, lon) float, chunked (1, 9, 18) with
//       deflate + shuffle; in every file pr's first chunk of each step is never written, so
//       readers see its _FillValue there.
//   records_nc3.nc
//       NetCDF-3 classic with a record dimension: time, station names (char), and two record
//       variables (float temperature, short pressure with scale_factor/add_offset).
//   groups.h5
//       plain HDF5 with nested groups, a gzip-compressed chunked dataset, a contiguous one and
//       attributes of several types.
// The content is fixed (no clocks, no randomness), so running it again gives files whose
// references are the same as those of the committed copies in data/samples/.
#include <hdf5.h>
#include <netcdf.h>

#include <array>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

void Nc(int rc, const char* what) {
  if (rc != NC_NOERR) throw std::runtime_error(std::string(what) + ": " + nc_strerror(rc));
}

template <typename T>
T H5(T rc, const char* what) {
  if (rc < 0) throw std::runtime_error(std::string("HDF5: ") + what + " failed");
  return rc;
}

void NcText(int ncid, int var, const char* name, const std::string& text) {
  Nc(nc_put_att_text(ncid, var, name, text.size(), text.c_str()), name);
}

constexpr size_t kSteps = 4, kLat = 18, kLon = 36;

void DefineDaily(int ncid, int& time, int& tas, int& pr) {
  int dims[3], lat, lon, crs;
  Nc(nc_def_dim(ncid, "time", NC_UNLIMITED, &dims[0]), "time dim");
  Nc(nc_def_dim(ncid, "lat", kLat, &dims[1]), "lat dim");
  Nc(nc_def_dim(ncid, "lon", kLon, &dims[2]), "lon dim");
  Nc(nc_def_var(ncid, "time", NC_DOUBLE, 1, &dims[0], &time), "time");
  NcText(ncid, time, "units", "hours since 2020-01-01 00:00:00");
  NcText(ncid, time, "calendar", "standard");
  NcText(ncid, time, "standard_name", "time");
  Nc(nc_def_var(ncid, "lat", NC_FLOAT, 1, &dims[1], &lat), "lat");
  NcText(ncid, lat, "units", "degrees_north");
  Nc(nc_def_var(ncid, "lon", NC_FLOAT, 1, &dims[2], &lon), "lon");
  NcText(ncid, lon, "units", "degrees_east");
  Nc(nc_def_var(ncid, "crs", NC_INT, 0, nullptr, &crs), "crs");
  NcText(ncid, crs, "grid_mapping_name", "latitude_longitude");
  const size_t chunks[3] = {1, kLat / 2, kLon / 2};
  Nc(nc_def_var(ncid, "tas", NC_FLOAT, 3, dims, &tas), "tas");
  NcText(ncid, tas, "units", "K");
  NcText(ncid, tas, "long_name", "near-surface air temperature");
  NcText(ncid, tas, "grid_mapping", "crs");
  Nc(nc_def_var(ncid, "pr", NC_FLOAT, 3, dims, &pr), "pr");
  NcText(ncid, pr, "units", "kg m-2 s-1");
  float fill = -999.0f;
  Nc(nc_put_att_float(ncid, pr, "_FillValue", NC_FLOAT, 1, &fill), "pr fill");
  for (int var : {tas, pr}) {
    Nc(nc_def_var_chunking(ncid, var, NC_CHUNKED, chunks), "chunking");
    Nc(nc_def_var_deflate(ncid, var, 1, 1, 4), "deflate");
  }
  NcText(ncid, NC_GLOBAL, "title", "kerchunk sample daily series");
  NcText(ncid, NC_GLOBAL, "Conventions", "CF-1.8");
  Nc(nc_enddef(ncid), "enddef");
  std::vector<float> lats(kLat), lons(kLon);
  for (size_t i = 0; i < kLat; ++i) lats[i] = -85.0f + 10.0f * static_cast<float>(i);
  for (size_t i = 0; i < kLon; ++i) lons[i] = 5.0f + 10.0f * static_cast<float>(i);
  Nc(nc_put_var_float(ncid, lat, lats.data()), "lat values");
  Nc(nc_put_var_float(ncid, lon, lons.data()), "lon values");
  int crs_value = 0;
  Nc(nc_put_var_int(ncid, crs, &crs_value), "crs value");
}

void WriteDaily(const std::filesystem::path& dir, int day) {
  std::string path = (dir / ("daily_2020010" + std::to_string(day + 1) + ".nc")).string();
  int ncid, time, tas, pr;
  Nc(nc_create(path.c_str(), NC_CLOBBER | NC_NETCDF4, &ncid), path.c_str());
  DefineDaily(ncid, time, tas, pr);
  std::array<double, kSteps> hours;
  for (size_t t = 0; t < kSteps; ++t) hours[t] = 24.0 * day + 6.0 * static_cast<double>(t);
  const size_t start1 = 0, count1 = kSteps;
  Nc(nc_put_vara_double(ncid, time, &start1, &count1, hours.data()), "time values");
  std::vector<float> field(kSteps * kLat * kLon);
  for (size_t i = 0; i < field.size(); ++i) {
    size_t t = i / (kLat * kLon), y = (i / kLon) % kLat, x = i % kLon;
    field[i] = 250.0f + 30.0f * std::cos(static_cast<float>(y) * 0.17f) +
               static_cast<float>(day * 4 + t) * 0.25f + static_cast<float>(x % 5);
  }
  Nc(nc_put_var_float(ncid, tas, field.data()), "tas values");
  // pr: every chunk but the first of each step.
  for (size_t t = 0; t < kSteps; ++t) {
    for (size_t y0 : {size_t{0}, kLat / 2}) {
      for (size_t x0 : {size_t{0}, kLon / 2}) {
        if (y0 == 0 && x0 == 0) continue;
        const size_t start[3] = {t, y0, x0}, count[3] = {1, kLat / 2, kLon / 2};
        std::vector<float> values(kLat / 2 * kLon / 2);
        for (size_t i = 0; i < values.size(); ++i) {
          values[i] = 1e-5f * static_cast<float>((i * 7 + t + static_cast<size_t>(day)) % 13);
        }
        Nc(nc_put_vara_float(ncid, pr, start, count, values.data()), "pr values");
      }
    }
  }
  Nc(nc_close(ncid), "close daily file");
}

void WriteRecordsNc3(const std::filesystem::path& dir) {
  std::string path = (dir / "records_nc3.nc").string();
  int ncid, time_dim, station_dim, name_dim, time, name, temperature, pressure;
  Nc(nc_create(path.c_str(), NC_CLOBBER | NC_CLASSIC_MODEL, &ncid), path.c_str());
  Nc(nc_def_dim(ncid, "time", NC_UNLIMITED, &time_dim), "time dim");
  Nc(nc_def_dim(ncid, "station", 3, &station_dim), "station dim");
  Nc(nc_def_dim(ncid, "name_strlen", 8, &name_dim), "strlen dim");
  Nc(nc_def_var(ncid, "time", NC_INT, 1, &time_dim, &time), "time");
  NcText(ncid, time, "units", "minutes since 2020-01-01 00:00:00");
  int name_dims[2] = {station_dim, name_dim};
  Nc(nc_def_var(ncid, "station_name", NC_CHAR, 2, name_dims, &name), "station_name");
  int rec_dims[2] = {time_dim, station_dim};
  Nc(nc_def_var(ncid, "temperature", NC_FLOAT, 2, rec_dims, &temperature), "temperature");
  NcText(ncid, temperature, "units", "degC");
  Nc(nc_def_var(ncid, "pressure", NC_SHORT, 2, rec_dims, &pressure), "pressure");
  NcText(ncid, pressure, "units", "hPa");
  float scale = 0.1f, offset = 1000.0f;
  Nc(nc_put_att_float(ncid, pressure, "scale_factor", NC_FLOAT, 1, &scale), "scale");
  Nc(nc_put_att_float(ncid, pressure, "add_offset", NC_FLOAT, 1, &offset), "offset");
  NcText(ncid, NC_GLOBAL, "title", "kerchunk sample station records (NetCDF-3)");
  Nc(nc_enddef(ncid), "enddef");
  const char names[3][8] = {"alpha", "bravo", "charlie"};
  Nc(nc_put_var_text(ncid, name, &names[0][0]), "names");
  constexpr size_t kRecords = 10;
  for (size_t r = 0; r < kRecords; ++r) {
    const size_t start[2] = {r, 0}, count[2] = {1, 3};
    int minutes = static_cast<int>(r) * 30;
    Nc(nc_put_var1_int(ncid, time, &r, &minutes), "time value");
    float t[3];
    short p[3];
    for (size_t s = 0; s < 3; ++s) {
      t[s] = 10.0f + static_cast<float>(r) * 0.5f - static_cast<float>(s);
      p[s] = static_cast<short>(130 - static_cast<int>(r) * 3 + static_cast<int>(s) * 11);
    }
    Nc(nc_put_vara_float(ncid, temperature, start, count, t), "temperature values");
    Nc(nc_put_vara_short(ncid, pressure, start, count, p), "pressure values");
  }
  Nc(nc_close(ncid), "close records file");
}

void H5Text(hid_t obj, const char* name, const std::string& text) {
  hid_t type = H5(H5Tcopy(H5T_C_S1), "copy string type");
  H5(H5Tset_size(type, text.size()), "string size");
  hid_t space = H5(H5Screate(H5S_SCALAR), "scalar space");
  hid_t attr = H5(H5Acreate2(obj, name, type, space, H5P_DEFAULT, H5P_DEFAULT), name);
  H5(H5Awrite(attr, type, text.c_str()), name);
  H5Aclose(attr);
  H5Sclose(space);
  H5Tclose(type);
}

void WriteGroupsH5(const std::filesystem::path& dir) {
  std::string path = (dir / "groups.h5").string();
  hid_t file = H5(H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT), "create");
  H5Text(file, "description", "kerchunk sample: groups, chunked and contiguous datasets");
  hid_t obs = H5(H5Gcreate2(file, "/observations", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), "g");
  hid_t station = H5(H5Gcreate2(obs, "station_a", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), "g");
  H5Text(station, "site", "hill top");
  const hsize_t dims[2] = {48, 10}, chunk[2] = {12, 5};
  // HDF5 stamps each dataset's object header with its modification time unless told not to;
  // without the stamp the file is the same byte for byte on every run.
  hid_t dcpl = H5(H5Pcreate(H5P_DATASET_CREATE), "dcpl");
  H5(H5Pset_obj_track_times(dcpl, false), "track times");
  hid_t contiguous_dcpl = H5(H5Pcreate(H5P_DATASET_CREATE), "dcpl");
  H5(H5Pset_obj_track_times(contiguous_dcpl, false), "track times");
  H5(H5Pset_chunk(dcpl, 2, chunk), "chunk");
  H5(H5Pset_deflate(dcpl, 6), "deflate");
  hid_t space = H5(H5Screate_simple(2, dims, nullptr), "space");
  hid_t wind =
      H5(H5Dcreate2(station, "wind_speed", H5T_IEEE_F32LE, space, H5P_DEFAULT, dcpl, H5P_DEFAULT),
         "wind_speed");
  std::vector<float> values(dims[0] * dims[1]);
  for (size_t i = 0; i < values.size(); ++i) values[i] = static_cast<float>(i % 17) * 0.5f;
  H5(H5Dwrite(wind, H5T_NATIVE_FLOAT, H5S_ALL, H5S_ALL, H5P_DEFAULT, values.data()), "write");
  H5Text(wind, "units", "m/s");
  hid_t model = H5(H5Gcreate2(file, "/model", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT), "g");
  const hsize_t grid_dims[2] = {6, 7};
  hid_t grid_space = H5(H5Screate_simple(2, grid_dims, nullptr), "grid space");
  hid_t grid = H5(H5Dcreate2(model, "elevation", H5T_STD_I16BE, grid_space, H5P_DEFAULT,
                             contiguous_dcpl, H5P_DEFAULT),
                  "elevation");
  std::vector<short> heights(grid_dims[0] * grid_dims[1]);
  for (size_t i = 0; i < heights.size(); ++i) heights[i] = static_cast<short>(i * 13 - 100);
  H5(H5Dwrite(grid, H5T_NATIVE_SHORT, H5S_ALL, H5S_ALL, H5P_DEFAULT, heights.data()), "write");
  double resolution = 0.25;
  hid_t scalar = H5(H5Screate(H5S_SCALAR), "scalar");
  hid_t attr = H5(H5Acreate2(grid, "resolution", H5T_IEEE_F64LE, scalar, H5P_DEFAULT, H5P_DEFAULT),
                  "resolution");
  H5(H5Awrite(attr, H5T_NATIVE_DOUBLE, &resolution), "resolution");
  for (hid_t id : {attr}) H5Aclose(id);
  for (hid_t id : {scalar, grid_space, space}) H5Sclose(id);
  for (hid_t id : {grid, wind}) H5Dclose(id);
  for (hid_t id : {dcpl, contiguous_dcpl}) H5Pclose(id);
  for (hid_t id : {model, station, obs}) H5Gclose(id);
  H5(H5Fclose(file), "close groups.h5");
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 2) {
    std::fprintf(stderr, "usage: kerchunk_make_samples DIR\nWrites the sample files into DIR.\n");
    return 2;
  }
  try {
    std::filesystem::path dir = argv[1];
    std::filesystem::create_directories(dir);
    for (int day = 0; day < 3; ++day) WriteDaily(dir, day);
    WriteRecordsNc3(dir);
    WriteGroupsH5(dir);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "kerchunk_make_samples: error: %s\n", e.what());
    return 2;
  }
  return 0;
}
