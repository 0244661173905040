#include "support/hdf5_structured_fixtures.h"

#include <hdf5.h>

#include <cstdint>
#include <cstring>
#include <vector>

namespace kerchunk::testing {
namespace {

#define FIXTURE_CHECK(expr)                                            \
  do {                                                                 \
    if ((expr) < 0) return InternalError("fixture: {} failed", #expr); \
  } while (false)

// The memory layout the values are written from (native, aligned); libhdf5 converts it member
// by member, by name, into the packed file type.
struct Nested {
  uint16_t x;
  float y;
};
struct Row {
  int32_t i;
  double f;
  char s[5];
  int8_t flag;
  Nested nested;
  float v[2][3];
};

hid_t BoolEnum() {
  hid_t t = H5Tenum_create(H5T_NATIVE_INT8);
  int8_t no = 0, yes = 1;
  H5Tenum_insert(t, "FALSE", &no);
  H5Tenum_insert(t, "TRUE", &yes);
  return t;
}

hid_t String5() {
  hid_t t = H5Tcopy(H5T_C_S1);
  H5Tset_size(t, 5);
  H5Tset_strpad(t, H5T_STR_NULLPAD);
  return t;
}

// The packed file type (file = true) or the aligned memory type of Row.
hid_t RowType(bool file) {
  const hsize_t dims[2] = {2, 3};
  hid_t nested = H5Tcreate(H5T_COMPOUND, file ? 6 : sizeof(Nested));
  H5Tinsert(nested, "x", file ? 0 : HOFFSET(Nested, x), file ? H5T_STD_U16LE : H5T_NATIVE_UINT16);
  H5Tinsert(nested, "y", file ? 2 : HOFFSET(Nested, y), file ? H5T_IEEE_F32LE : H5T_NATIVE_FLOAT);
  hid_t array = H5Tarray_create2(file ? H5T_IEEE_F32LE : H5T_NATIVE_FLOAT, 2, dims);
  hid_t s = String5(), b = BoolEnum();
  hid_t t = H5Tcreate(H5T_COMPOUND, file ? 48 : sizeof(Row));
  H5Tinsert(t, "i", file ? 0 : HOFFSET(Row, i), file ? H5T_STD_I32LE : H5T_NATIVE_INT32);
  H5Tinsert(t, "f", file ? 4 : HOFFSET(Row, f), file ? H5T_IEEE_F64LE : H5T_NATIVE_DOUBLE);
  H5Tinsert(t, "s", file ? 12 : HOFFSET(Row, s), s);
  H5Tinsert(t, "flag", file ? 17 : HOFFSET(Row, flag), b);
  H5Tinsert(t, "nested", file ? 18 : HOFFSET(Row, nested), nested);
  H5Tinsert(t, "v", file ? 24 : HOFFSET(Row, v), array);
  for (hid_t id : {nested, array, s, b}) H5Tclose(id);
  return t;
}

std::vector<Row> Rows(size_t n) {
  std::vector<Row> rows(n);
  for (size_t k = 0; k < n; ++k) {
    Row& r = rows[k];
    std::memset(&r, 0, sizeof(r));
    r.i = static_cast<int32_t>(k * 7) - 20;
    r.f = 0.25 * static_cast<double>(k) - 1e10;
    std::memcpy(r.s, k % 2 ? "odd" : "even!", k % 2 ? 3 : 5);
    r.flag = static_cast<int8_t>(k % 3 == 0);
    r.nested = {static_cast<uint16_t>(60000 + k), -0.5f * static_cast<float>(k)};
    for (int a = 0; a < 2; ++a) {
      for (int c = 0; c < 3; ++c) r.v[a][c] = static_cast<float>(k * 100 + a * 10 + c);
    }
  }
  return rows;
}

Row FillRow() {
  Row r;
  std::memset(&r, 0, sizeof(r));
  r.i = -1;
  r.f = 2.5;
  std::memcpy(r.s, "fill", 4);
  r.flag = 1;
  return r;
}

Status WriteDataset(hid_t file, const char* name, hid_t file_type, hid_t mem_type,
                    std::vector<hsize_t> dims, hid_t dcpl, const void* data, hsize_t rows = 0) {
  hid_t space = H5Screate_simple(static_cast<int>(dims.size()), dims.data(), nullptr);
  hid_t d = H5Dcreate2(file, name, file_type, space, H5P_DEFAULT, dcpl, H5P_DEFAULT);
  FIXTURE_CHECK(d);
  if (rows > 0) {
    // Only the first `rows` elements (a rank-1 dataset).
    hsize_t start[1] = {0}, count[1] = {rows};
    hid_t mem = H5Screate_simple(1, count, nullptr);
    FIXTURE_CHECK(H5Sselect_hyperslab(space, H5S_SELECT_SET, start, nullptr, count, nullptr));
    FIXTURE_CHECK(H5Dwrite(d, mem_type, mem, space, H5P_DEFAULT, data));
    H5Sclose(mem);
  } else {
    FIXTURE_CHECK(H5Dwrite(d, mem_type, H5S_ALL, H5S_ALL, H5P_DEFAULT, data));
  }
  H5Dclose(d);
  H5Sclose(space);
  return OkStatus();
}

hid_t ChunkedPlist(hsize_t chunk, const Row& fill, hid_t mem_type) {
  hid_t p = H5Pcreate(H5P_DATASET_CREATE);
  H5Pset_chunk(p, 1, &chunk);
  H5Pset_fill_value(p, mem_type, &fill);
  return p;
}

Status WritePackedDatasets(hid_t file) {
  hid_t ft = RowType(true), mt = RowType(false);
  const std::vector<Row> rows = Rows(12);
  const Row fill = FillRow();
  hid_t filtered = ChunkedPlist(4, fill, mt);
  FIXTURE_CHECK(H5Pset_shuffle(filtered));
  FIXTURE_CHECK(H5Pset_deflate(filtered, 6));
  KERCHUNK_RETURN_IF_ERROR(WriteDataset(file, "packed", ft, mt, {12}, filtered, rows.data()));
  KERCHUNK_RETURN_IF_ERROR(
      WriteDataset(file, "grid/contiguous", ft, mt, {3, 2}, H5P_DEFAULT, rows.data()));
  hid_t compact = H5Pcreate(H5P_DATASET_CREATE);
  FIXTURE_CHECK(H5Pset_layout(compact, H5D_COMPACT));
  KERCHUNK_RETURN_IF_ERROR(WriteDataset(file, "compact", ft, mt, {12}, compact, rows.data()));
  hid_t sparse = ChunkedPlist(4, fill, mt);
  KERCHUNK_RETURN_IF_ERROR(WriteDataset(file, "unwritten", ft, mt, {12}, sparse, rows.data(), 4));
  for (hid_t p : {filtered, compact, sparse}) H5Pclose(p);
  H5Tclose(ft);
  H5Tclose(mt);
  return OkStatus();
}

Status WriteOtherDatasets(hid_t file) {
  hid_t complex = H5Tcreate(H5T_COMPOUND, 16);
  H5Tinsert(complex, "r", 0, H5T_IEEE_F64LE);
  H5Tinsert(complex, "i", 8, H5T_IEEE_F64LE);
  double pairs[24];
  for (int k = 0; k < 24; ++k) pairs[k] = k % 2 ? -0.5 * k : 1e-3 * k;
  KERCHUNK_RETURN_IF_ERROR(
      WriteDataset(file, "complex", complex, complex, {12}, H5P_DEFAULT, pairs));
  hid_t big = H5Tcreate(H5T_COMPOUND, 12);
  H5Tinsert(big, "a", 0, H5T_STD_I32BE);
  H5Tinsert(big, "b", 4, H5T_IEEE_F64BE);
  hid_t big_mem = H5Tcreate(H5T_COMPOUND, 12);
  H5Tinsert(big_mem, "a", 0, H5T_STD_I32LE);
  H5Tinsert(big_mem, "b", 4, H5T_IEEE_F64LE);
  unsigned char big_rows[36] = {};
  for (int k = 0; k < 3; ++k) {
    const int32_t a = 1000 * k - 1;
    const double b = -0.125 * k;
    std::memcpy(big_rows + 12 * k, &a, 4);
    std::memcpy(big_rows + 12 * k + 4, &b, 8);
  }
  KERCHUNK_RETURN_IF_ERROR(
      WriteDataset(file, "big_endian", big, big_mem, {3}, H5P_DEFAULT, big_rows));
  hid_t padded = H5Tcreate(H5T_COMPOUND, 8);
  H5Tinsert(padded, "a", 0, H5T_STD_I8LE);
  H5Tinsert(padded, "b", 4, H5T_STD_I32LE);
  const unsigned char padded_rows[24] = {1,  0, 0, 0, 10, 0, 0, 0, 2,  0, 0, 0,
                                         20, 0, 0, 0, 3,  0, 0, 0, 30, 0, 0, 0};
  KERCHUNK_RETURN_IF_ERROR(
      WriteDataset(file, "padded", padded, padded, {3}, H5P_DEFAULT, padded_rows));
  hid_t vlen = H5Tcopy(H5T_C_S1);
  H5Tset_size(vlen, H5T_VARIABLE);
  struct VlenRow {
    int32_t a;
    const char* s;
  };
  hid_t vlen_mem = H5Tcreate(H5T_COMPOUND, sizeof(VlenRow));
  H5Tinsert(vlen_mem, "a", HOFFSET(VlenRow, a), H5T_NATIVE_INT32);
  H5Tinsert(vlen_mem, "s", HOFFSET(VlenRow, s), vlen);
  hid_t vlen_file = H5Tcreate(H5T_COMPOUND, 4 + H5Tget_size(vlen));
  H5Tinsert(vlen_file, "a", 0, H5T_STD_I32LE);
  H5Tinsert(vlen_file, "s", 4, vlen);
  const VlenRow vlen_rows[2] = {{1, "one"}, {2, "two"}};
  KERCHUNK_RETURN_IF_ERROR(
      WriteDataset(file, "vlen_member", vlen_file, vlen_mem, {2}, H5P_DEFAULT, vlen_rows));
  for (hid_t t : {complex, big, big_mem, padded, vlen, vlen_mem, vlen_file}) H5Tclose(t);
  return OkStatus();
}

}  // namespace

std::string PackedFillBytes() {
  hid_t ft = RowType(true), mt = RowType(false);
  Row fill = FillRow();
  std::string buffer(sizeof(Row) > 48 ? sizeof(Row) : 48, '\0');
  std::string background(buffer.size(), '\0');  // compound conversions need one
  std::memcpy(buffer.data(), &fill, sizeof(Row));
  H5Tconvert(mt, ft, 1, buffer.data(), background.data(), H5P_DEFAULT);
  H5Tclose(ft);
  H5Tclose(mt);
  buffer.resize(48);
  return buffer;
}

Result<std::string> WriteStructuredFixture(const std::filesystem::path& dir) {
  const std::string path = (dir / "structured.h5").string();
  hid_t file = H5Fcreate(path.c_str(), H5F_ACC_TRUNC, H5P_DEFAULT, H5P_DEFAULT);
  FIXTURE_CHECK(file);
  hid_t group = H5Gcreate2(file, "grid", H5P_DEFAULT, H5P_DEFAULT, H5P_DEFAULT);
  FIXTURE_CHECK(group);
  H5Gclose(group);
  Status status = WritePackedDatasets(file);
  if (status.ok()) status = WriteOtherDatasets(file);
  H5Fclose(file);
  if (!status.ok()) return status;
  return path;
}

}  // namespace kerchunk::testing
