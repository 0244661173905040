#include "support/hdf5_translate_fixtures.h"

#include <hdf5.h>
#include <hdf5_hl.h>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

namespace kerchunk::testing {
namespace {

// Fixture writing stops at the first failing HDF5 call; ids leak then, which a test tolerates.
#define FIXTURE_CHECK(expr)                                            \
  do {                                                                 \
    if ((expr) < 0) return InternalError("fixture: {} failed", #expr); \
  } while (false)

hid_t Space(std::vector<hsize_t> dims) {
  if (dims.empty()) return H5Screate(H5S_SCALAR);
  return H5Screate_simple(static_cast<int>(dims.size()), dims.data(), nullptr);
}

Status Attr(hid_t obj, const char* name, hid_t type, std::vector<hsize_t> dims, const void* data,
            hid_t mem_type = H5I_INVALID_HID) {
  hid_t space = Space(dims);
  hid_t a = H5Acreate2(obj, name, type, space, H5P_DEFAULT, H5P_DEFAULT);
  FIXTURE_CHECK(a);
  FIXTURE_CHECK(H5Awrite(a, mem_type == H5I_INVALID_HID ? type : mem_type, data));
  H5Aclose(a);
  H5Sclose(space);
  return OkStatus();
}

hid_t FixedString(size_t size) {
  hid_t t = H5Tcopy(H5T_C_S1);
  H5Tset_size(t, size);
  return t;
}

hid_t VlenString() {
  hid_t t = H5Tcopy(H5T_C_S1);
  H5Tset_size(t, H5T_VARIABLE);
  H5Tset_cset(t, H5T_CSET_UTF8);
  return t;
}

hid_t BoolEnum() {
  hid_t t = H5Tenum_create(H5T_NATIVE_INT8);
  int8_t f = 0, v = 1;
  H5Tenum_insert(t, "FALSE", &f);
  H5Tenum_insert(t, "TRUE", &v);
  return t;
}

// Creates and fully writes a dataset; `dcpl` may be H5P_DEFAULT.
Status Dataset(hid_t loc, const char* name, hid_t file_type, hid_t mem_type,
               std::vector<hsize_t> dims, hid_t dcpl, const void* data) {
  hid_t space = Space(dims);
  hid_t d = H5Dcreate2(loc, name, file_type, space, H5P_DEFAULT, dcpl, H5P_DEFAULT);
  FIXTURE_CHECK(d);
  if (data) FIXTURE_CHECK(H5Dwrite(d, mem_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, data));
  H5Dclose(d);
  H5Sclose(space);
  return OkStatus();
}

hid_t ChunkedPlist(std::vector<hsize_t> chunk) {
  hid_t p = H5Pcreate(H5P_DATASET_CREATE);
  H5Pset_chunk(p, static_cast<int>(chunk.size()), chunk.data());
  return p;
}

Status WriteRootAndGroup(hid_t file) {
  hid_t s6 = FixedString(6), vs = VlenString(), be = BoolEnum();
  const char* title = "demo\0\0";
  const char* history = "made by a test \xc3\xa9";
  const int version = 3;
  KERCHUNK_RETURN_IF_ERROR(Attr(file, "title", s6, {}, title));
  KERCHUNK_RETURN_IF_ERROR(Attr(file, "history", vs, {}, &history));
  KERCHUNK_RETURN_IF_ERROR(Attr(file, "version", H5T_NATIVE_INT, {}, &version));
  KERCHUNK_RETURN_IF_ERROR(Attr(file, "_NCProperties", vs, {}, &history));
  hid_t null_space = H5Screate(H5S_NULL);
  hid_t a = H5Acreate2(file, "empty", H5T_NATIVE_INT, null_space, H5P_DEFAULT, H5P_DEFAULT);
  FIXTURE_CHECK(a);
  H5Aclose(a);
  H5Sclose(null_space);

  hid_t g = H5Gcreate2(file, "g1", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  FIXTURE_CHECK(g);
  const double nan = std::nan("");
  const float vec[3] = {0.5f, 1.25f, -2.0f};
  const int16_t one[1] = {7};
  const int32_t grid[4] = {1, 2, 3, 4};
  const char names[12] = {'a', 'b', 0, 0, 0, 0, 'c', 'd', 'e', 0, 0, 0};
  const int8_t flag = 1;
  KERCHUNK_RETURN_IF_ERROR(Attr(g, "nan", H5T_NATIVE_DOUBLE, {}, &nan));
  KERCHUNK_RETURN_IF_ERROR(Attr(g, "vec", H5T_IEEE_F32LE, {3}, vec));
  KERCHUNK_RETURN_IF_ERROR(Attr(g, "one", H5T_STD_I16LE, {1}, one));
  KERCHUNK_RETURN_IF_ERROR(Attr(g, "grid", H5T_STD_I32BE, {2, 2}, grid, H5T_NATIVE_INT32));
  hid_t s6b = FixedString(6);
  KERCHUNK_RETURN_IF_ERROR(Attr(g, "names", s6b, {2}, names));
  KERCHUNK_RETURN_IF_ERROR(Attr(g, "flag", be, {}, &flag));

  hid_t p = ChunkedPlist({2, 3});
  H5Pset_shuffle(p);
  H5Pset_deflate(p, 4);
  const float fill = 1.5f;
  H5Pset_fill_value(p, H5T_NATIVE_FLOAT, &fill);
  std::vector<float> temp(35);
  for (size_t i = 0; i < temp.size(); ++i) temp[i] = static_cast<float>(i) * 0.25f;
  KERCHUNK_RETURN_IF_ERROR(
      Dataset(g, "temp", H5T_IEEE_F32LE, H5T_NATIVE_FLOAT, {5, 7}, p, temp.data()));
  hid_t t = H5Dopen2(g, "temp", H5P_DEFAULT);
  const char* units = "K";
  hid_t vs2 = VlenString();
  KERCHUNK_RETURN_IF_ERROR(Attr(t, "units", vs2, {}, &units));
  H5Dclose(t);
  for (hid_t id : {s6, s6b}) H5Tclose(id);
  for (hid_t id : {vs, vs2, be}) H5Tclose(id);
  H5Pclose(p);
  H5Gclose(g);
  return OkStatus();
}

Status WriteDimensionScales(hid_t file) {
  const double x[5] = {0, 1, 2, 3, 4};
  const double y[7] = {10, 11, 12, 13, 14, 15, 16};
  KERCHUNK_RETURN_IF_ERROR(
      Dataset(file, "x", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, {5}, H5P_DEFAULT, x));
  KERCHUNK_RETURN_IF_ERROR(
      Dataset(file, "y", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, {7}, H5P_DEFAULT, y));
  hid_t xs = H5Dopen2(file, "x", H5P_DEFAULT), ys = H5Dopen2(file, "y", H5P_DEFAULT);
  hid_t temp = H5Dopen2(file, "g1/temp", H5P_DEFAULT);
  FIXTURE_CHECK(H5DSset_scale(xs, "x"));
  FIXTURE_CHECK(H5DSset_scale(ys, "y"));
  FIXTURE_CHECK(H5DSattach_scale(temp, xs, 0));
  FIXTURE_CHECK(H5DSattach_scale(temp, ys, 1));
  // A netCDF dimension that is not a variable: a scale whose storage was never allocated.
  KERCHUNK_RETURN_IF_ERROR(
      Dataset(file, "dim_only", H5T_IEEE_F32LE, H5T_NATIVE_FLOAT, {5}, H5P_DEFAULT, nullptr));
  hid_t dim_only = H5Dopen2(file, "dim_only", H5P_DEFAULT);
  FIXTURE_CHECK(H5DSset_scale(dim_only, "This is a netCDF dimension but not a netCDF variable."));
  H5Dclose(dim_only);
  const double fill = -9.5;
  KERCHUNK_RETURN_IF_ERROR(Attr(ys, "_FillValue", H5T_NATIVE_DOUBLE, {}, &fill));
  for (hid_t id : {xs, ys, temp}) H5Dclose(id);
  return OkStatus();
}

Status WriteLayoutsAndTypes(hid_t file) {
  const int16_t be[12] = {1, -2, 3, -4, 5, -6, 7, -8, 9, -10, 11, -12};
  KERCHUNK_RETURN_IF_ERROR(
      Dataset(file, "be_int16", H5T_STD_I16BE, H5T_NATIVE_INT16, {3, 4}, H5P_DEFAULT, be));
  hid_t s6 = FixedString(6);
  const char strings[18] = "abc\0\0\0defghi\0\0\0\0\0";
  KERCHUNK_RETURN_IF_ERROR(Dataset(file, "fixed_str", s6, s6, {3}, H5P_DEFAULT, strings));
  hid_t vs = VlenString();
  const char* words[4] = {"alpha", "\xce\xb2\xce\xb7\xcf\x84\xce\xb1", "", "delta"};
  hid_t p3 = ChunkedPlist({3});
  KERCHUNK_RETURN_IF_ERROR(Dataset(file, "vlen_str", vs, vs, {4}, p3, words));
  const char* single = "only";
  KERCHUNK_RETURN_IF_ERROR(Dataset(file, "vlen_scalar", vs, vs, {}, H5P_DEFAULT, &single));
  const double scalar = 2.75;
  KERCHUNK_RETURN_IF_ERROR(
      Dataset(file, "scalar", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, {}, H5P_DEFAULT, &scalar));
  hid_t compact = H5Pcreate(H5P_DATASET_CREATE);
  H5Pset_layout(compact, H5D_COMPACT);
  const int32_t small[6] = {1, 2, 3, 4, 5, 6};
  KERCHUNK_RETURN_IF_ERROR(
      Dataset(file, "compact", H5T_STD_I32LE, H5T_NATIVE_INT32, {2, 3}, compact, small));
  hid_t null_space = H5Screate(H5S_NULL);
  hid_t d = H5Dcreate2(file, "null_space", H5T_NATIVE_INT, null_space, H5P_DEFAULT, H5P_DEFAULT,
                       H5P_DEFAULT);
  FIXTURE_CHECK(d);
  H5Dclose(d);
  H5Sclose(null_space);
  hid_t f32 = ChunkedPlist({4});
  H5Pset_fletcher32(f32);
  const int32_t ten[10] = {10, 20, 30, 40, 50, 60, 70, 80, 90, 100};
  KERCHUNK_RETURN_IF_ERROR(
      Dataset(file, "fletcher", H5T_STD_I32LE, H5T_NATIVE_INT32, {10}, f32, ten));
  const int8_t bools[4] = {1, 0, 0, 1};
  hid_t be_enum = BoolEnum();
  KERCHUNK_RETURN_IF_ERROR(Dataset(file, "bools", be_enum, be_enum, {4}, H5P_DEFAULT, bools));
  H5Tclose(be_enum);
  H5Tclose(s6);
  H5Tclose(vs);
  for (hid_t id : {p3, compact, f32}) H5Pclose(id);
  return OkStatus();
}

Status WriteFillAndUnsupported(hid_t file) {
  hid_t p = ChunkedPlist({2});
  const float nan = std::nanf("");
  H5Pset_fill_value(p, H5T_NATIVE_FLOAT, &nan);
  KERCHUNK_RETURN_IF_ERROR(
      Dataset(file, "unwritten", H5T_IEEE_F32LE, H5T_NATIVE_FLOAT, {8}, p, nullptr));
  hid_t d = H5Dopen2(file, "unwritten", H5P_DEFAULT);
  for (hsize_t start : {0, 4}) {
    hid_t fs = H5Dget_space(d);
    hsize_t count = 2;
    H5Sselect_hyperslab(fs, H5S_SELECT_SET, &start, nullptr, &count, nullptr);
    hid_t ms = H5Screate_simple(1, &count, nullptr);
    const float v[2] = {static_cast<float>(start) + 0.5f, static_cast<float>(start) + 1.5f};
    FIXTURE_CHECK(H5Dwrite(d, H5T_NATIVE_FLOAT, ms, fs, H5P_DEFAULT, v));
    H5Sclose(ms);
    H5Sclose(fs);
  }
  H5Dclose(d);
  KERCHUNK_RETURN_IF_ERROR(
      Dataset(file, "never_written", H5T_STD_I16LE, H5T_NATIVE_INT16, {4}, H5P_DEFAULT, nullptr));
  const double days[3] = {0, 1, 2};
  KERCHUNK_RETURN_IF_ERROR(
      Dataset(file, "time", H5T_IEEE_F64LE, H5T_NATIVE_DOUBLE, {3}, H5P_DEFAULT, days));
  hid_t t = H5Dopen2(file, "time", H5P_DEFAULT);
  hid_t s = FixedString(22);
  KERCHUNK_RETURN_IF_ERROR(Attr(t, "units", s, {}, "days since 2000-01-01\0"));
  const int dimid = 0;
  KERCHUNK_RETURN_IF_ERROR(Attr(t, "_Netcdf4Dimid", H5T_NATIVE_INT, {}, &dimid));
  H5Dclose(t);
  H5Tclose(s);
  struct Row {
    int32_t a;
    double b;
  };
  hid_t c = H5Tcreate(H5T_COMPOUND, sizeof(Row));
  H5Tinsert(c, "a", HOFFSET(Row, a), H5T_NATIVE_INT32);
  H5Tinsert(c, "b", HOFFSET(Row, b), H5T_NATIVE_DOUBLE);
  const Row rows[3] = {{1, 0.5}, {2, 1.5}, {3, 2.5}};
  KERCHUNK_RETURN_IF_ERROR(Dataset(file, "compound", c, c, {3}, H5P_DEFAULT, rows));
  H5Tclose(c);
  hid_t nb = ChunkedPlist({3});
  H5Pset_nbit(nb);
  const int32_t six[6] = {-3, -2, -1, 0, 1, 2};
  KERCHUNK_RETURN_IF_ERROR(Dataset(file, "nbit", H5T_STD_I32LE, H5T_NATIVE_INT32, {6}, nb, six));
  H5Pclose(nb);
  H5Pclose(p);
  return OkStatus();
}

}  // namespace

Result<std::string> WriteTranslationFixture(const std::filesystem::path& dir) {
  const std::string path = (dir / "translate.h5").string();
  hid_t file = H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  FIXTURE_CHECK(file);
  Status s = WriteRootAndGroup(file);
  if (s.ok()) s = WriteDimensionScales(file);
  if (s.ok()) s = WriteLayoutsAndTypes(file);
  if (s.ok()) s = WriteFillAndUnsupported(file);
  H5Fclose(file);
  if (!s.ok()) return s;
  return path;
}

Result<std::string> WriteManyChunksFixture(const std::filesystem::path& dir, uint64_t chunks) {
  const std::string path = (dir / "many_chunks.h5").string();
  hid_t file = H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  FIXTURE_CHECK(file);
  hid_t p = ChunkedPlist({16});
  std::vector<int32_t> values(chunks * 16);
  for (size_t i = 0; i < values.size(); ++i) values[i] = static_cast<int32_t>(i);
  Status s =
      Dataset(file, "data", H5T_STD_I32LE, H5T_NATIVE_INT32, {chunks * 16}, p, values.data());
  H5Pclose(p);
  H5Fclose(file);
  if (!s.ok()) return s;
  return path;
}

}  // namespace kerchunk::testing
