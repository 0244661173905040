#include "support/netcdf3_fixtures.h"

#include <gtest/gtest.h>
#include <netcdf.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <numeric>

namespace kerchunk::testing {
namespace {

#define NC_TRY(expr)                               \
  do {                                             \
    int nc_status_ = (expr);                       \
    if (nc_status_ != NC_NOERR) return nc_status_; \
  } while (false)

constexpr float kNaNf = std::numeric_limits<float>::quiet_NaN();
constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
constexpr double kInf = std::numeric_limits<double>::infinity();

int PutText(int ncid, int varid, const char* name, std::string_view text) {
  return nc_put_att_text(ncid, varid, name, text.size(), text.data());
}

// Attributes of every type the format allows: single values (scalars in JSON), several values
// (lists), empty ones, text with trailing NULs and non-ASCII UTF-8, NaN and infinities.
int PutAttributesOfEveryType(int ncid, int varid, bool cdf5) {
  NC_TRY(PutText(ncid, varid, "text", "hello world"));
  NC_TRY(PutText(ncid, varid, "empty_text", ""));
  NC_TRY(PutText(ncid, varid, "text_with_nuls", std::string_view("units\0\0", 7)));
  NC_TRY(PutText(ncid, varid, "utf8_text",
                 "temp\xC3\xA9rature \xC2\xB0"
                 "C \xF0\x9F\x8C\xA1"));
  const signed char bytes[] = {-128, 0, 127};
  NC_TRY(nc_put_att_schar(ncid, varid, "byte1", NC_BYTE, 1, bytes));
  NC_TRY(nc_put_att_schar(ncid, varid, "bytes", NC_BYTE, 3, bytes));
  const short shorts[] = {-32768, 0, 32767};
  NC_TRY(nc_put_att_short(ncid, varid, "short1", NC_SHORT, 1, shorts + 2));
  NC_TRY(nc_put_att_short(ncid, varid, "shorts", NC_SHORT, 3, shorts));
  const int ints[] = {std::numeric_limits<int>::min(), 0, std::numeric_limits<int>::max()};
  NC_TRY(nc_put_att_int(ncid, varid, "int1", NC_INT, 1, ints));
  NC_TRY(nc_put_att_int(ncid, varid, "ints", NC_INT, 3, ints));
  NC_TRY(nc_put_att_int(ncid, varid, "empty_ints", NC_INT, 0, ints));
  const float floats[] = {1.1f, kNaNf, -std::numeric_limits<float>::infinity(), 0.5f};
  NC_TRY(nc_put_att_float(ncid, varid, "float1", NC_FLOAT, 1, floats));
  NC_TRY(nc_put_att_float(ncid, varid, "floats", NC_FLOAT, 4, floats));
  const double doubles[] = {1e20, 0.1, kNaN, kInf, -0.0};
  NC_TRY(nc_put_att_double(ncid, varid, "double1", NC_DOUBLE, 1, doubles));
  NC_TRY(nc_put_att_double(ncid, varid, "doubles", NC_DOUBLE, 5, doubles));
  if (!cdf5) return NC_NOERR;
  const unsigned char ubytes[] = {0, 200, 255};
  NC_TRY(nc_put_att_uchar(ncid, varid, "ubytes", NC_UBYTE, 3, ubytes));
  const unsigned short ushorts[] = {65535, 1};
  NC_TRY(nc_put_att_ushort(ncid, varid, "ushort1", NC_USHORT, 1, ushorts));
  const unsigned int uints[] = {4294967295u, 7};
  NC_TRY(nc_put_att_uint(ncid, varid, "uints", NC_UINT, 2, uints));
  const long long int64s[] = {std::numeric_limits<long long>::min(), 42};
  NC_TRY(nc_put_att_longlong(ncid, varid, "int64s", NC_INT64, 2, int64s));
  const unsigned long long uint64s[] = {0, 1ull << 63, std::numeric_limits<uint64_t>::max()};
  NC_TRY(nc_put_att_ulonglong(ncid, varid, "uint64_1", NC_UINT64, 1, uint64s + 2));
  NC_TRY(nc_put_att_ulonglong(ncid, varid, "uint64s", NC_UINT64, 3, uint64s));
  return NC_NOERR;
}

// Deterministic values of any type: element i of variable `seed`.
template <typename T>
std::vector<T> Values(size_t n, int seed) {
  std::vector<T> v(n);
  for (size_t i = 0; i < n; ++i) {
    if constexpr (std::is_floating_point_v<T>) {
      v[i] = static_cast<T>(seed * 100.25 + static_cast<double>(i) * 0.5 - 7);
    } else {
      v[i] = static_cast<T>(seed * 31 + i * 7 + 3);
    }
  }
  return v;
}

int DefVar(int ncid, const char* name, nc_type type, std::vector<int> dims, int* varid) {
  return nc_def_var(ncid, name, type, static_cast<int>(dims.size()), dims.data(), varid);
}

// Fixed-size variables of every type in 1 to 3 dimensions (sizes that need padding: 3 shorts,
// 15 bytes, 3x7 chars), scalars of every type, a coordinate variable, _FillValue and
// missing_value, and one variable never written (the file holds its fill value).
int FixedTypes(int ncid, bool cdf5) {
  int x, y, strlen7, z;
  NC_TRY(nc_def_dim(ncid, "x", 3, &x));
  NC_TRY(nc_def_dim(ncid, "y", 5, &y));
  NC_TRY(nc_def_dim(ncid, "strlen", 7, &strlen7));
  NC_TRY(nc_def_dim(ncid, "z", 2, &z));
  NC_TRY(PutAttributesOfEveryType(ncid, NC_GLOBAL, cdf5));
  int xv, b, c, s, i, f, d, unwritten, sb, sc, ss, si, sf, sd;
  NC_TRY(DefVar(ncid, "x", NC_INT, {x}, &xv));
  NC_TRY(PutText(ncid, xv, "units", "m"));
  NC_TRY(DefVar(ncid, "b", NC_BYTE, {x, y}, &b));
  NC_TRY(DefVar(ncid, "c", NC_CHAR, {x, strlen7}, &c));
  NC_TRY(DefVar(ncid, "s", NC_SHORT, {x}, &s));
  NC_TRY(DefVar(ncid, "i", NC_INT, {y}, &i));
  NC_TRY(DefVar(ncid, "f", NC_FLOAT, {z, x, y}, &f));
  const float f_fill = -999.f, f_missing = -1.f, f_range[] = {-100.f, 100.f};
  NC_TRY(nc_put_att_float(ncid, f, "_FillValue", NC_FLOAT, 1, &f_fill));
  NC_TRY(nc_put_att_float(ncid, f, "missing_value", NC_FLOAT, 1, &f_missing));
  NC_TRY(nc_put_att_float(ncid, f, "valid_range", NC_FLOAT, 2, f_range));
  NC_TRY(PutAttributesOfEveryType(ncid, f, cdf5));
  NC_TRY(DefVar(ncid, "d", NC_DOUBLE, {y}, &d));
  NC_TRY(nc_put_att_double(ncid, d, "_FillValue", NC_DOUBLE, 1, &kNaN));
  NC_TRY(DefVar(ncid, "unwritten", NC_SHORT, {y}, &unwritten));
  const short s_fill = -7;
  NC_TRY(nc_put_att_short(ncid, unwritten, "_FillValue", NC_SHORT, 1, &s_fill));
  NC_TRY(DefVar(ncid, "scalar_byte", NC_BYTE, {}, &sb));
  NC_TRY(DefVar(ncid, "scalar_char", NC_CHAR, {}, &sc));
  NC_TRY(DefVar(ncid, "scalar_short", NC_SHORT, {}, &ss));
  NC_TRY(DefVar(ncid, "scalar_int", NC_INT, {}, &si));
  NC_TRY(DefVar(ncid, "scalar_float", NC_FLOAT, {}, &sf));
  NC_TRY(DefVar(ncid, "scalar_double", NC_DOUBLE, {}, &sd));
  NC_TRY(PutText(ncid, sd, "long_name", "a scalar"));
  NC_TRY(nc_enddef(ncid));

  NC_TRY(nc_put_var_int(ncid, xv, Values<int>(3, 1).data()));
  NC_TRY(nc_put_var_schar(ncid, b, Values<signed char>(15, 2).data()));
  NC_TRY(nc_put_var_text(ncid, c, "abcdefghijklmnopqrstu"));
  NC_TRY(nc_put_var_short(ncid, s, Values<short>(3, 3).data()));
  NC_TRY(nc_put_var_int(ncid, i, Values<int>(5, 4).data()));
  auto fv = Values<float>(30, 5);
  fv[3] = f_fill;
  fv[4] = kNaNf;
  NC_TRY(nc_put_var_float(ncid, f, fv.data()));
  NC_TRY(nc_put_var_double(ncid, d, Values<double>(5, 6).data()));
  const signed char byte_value = -3;
  NC_TRY(nc_put_var_schar(ncid, sb, &byte_value));
  NC_TRY(nc_put_var_text(ncid, sc, "Z"));
  const short short_value = 12345;
  NC_TRY(nc_put_var_short(ncid, ss, &short_value));
  const int int_value = -2000000000;
  NC_TRY(nc_put_var_int(ncid, si, &int_value));
  const float float_value = 3.25f;
  NC_TRY(nc_put_var_float(ncid, sf, &float_value));
  const double double_value = -1e300;
  return nc_put_var_double(ncid, sd, &double_value);
}

// Several record variables of every type (padded in the record: 3 shorts, 5 chars, 1 byte), a
// coordinate, a fixed-size variable, and one record variable written for only some records.
int Records(int ncid, bool cdf5) {
  constexpr size_t kRecords = 7;
  int time, x, strlen5;
  NC_TRY(nc_def_dim(ncid, "time", NC_UNLIMITED, &time));
  NC_TRY(nc_def_dim(ncid, "x", 3, &x));
  NC_TRY(nc_def_dim(ncid, "strlen", 5, &strlen5));
  NC_TRY(PutText(ncid, NC_GLOBAL, "title", "records"));
  int fx, tv, rs, rc, rb, ri, rf, rd, rub = -1, ru64 = -1;
  NC_TRY(DefVar(ncid, "fx", NC_FLOAT, {x}, &fx));
  NC_TRY(DefVar(ncid, "time", NC_DOUBLE, {time}, &tv));
  NC_TRY(PutText(ncid, tv, "units", "days since 2000-01-01"));
  NC_TRY(DefVar(ncid, "rs", NC_SHORT, {time, x}, &rs));
  NC_TRY(DefVar(ncid, "rc", NC_CHAR, {time, strlen5}, &rc));
  NC_TRY(DefVar(ncid, "rb", NC_BYTE, {time}, &rb));
  NC_TRY(DefVar(ncid, "ri", NC_INT, {time, x}, &ri));
  NC_TRY(DefVar(ncid, "rf", NC_FLOAT, {time, x, strlen5}, &rf));
  NC_TRY(DefVar(ncid, "rd", NC_DOUBLE, {time}, &rd));
  const double rd_fill = 9.5;
  NC_TRY(nc_put_att_double(ncid, rd, "_FillValue", NC_DOUBLE, 1, &rd_fill));
  if (cdf5) {
    NC_TRY(DefVar(ncid, "rub", NC_UBYTE, {time, x}, &rub));
    NC_TRY(DefVar(ncid, "ru64", NC_UINT64, {time}, &ru64));
  }
  NC_TRY(nc_enddef(ncid));

  NC_TRY(nc_put_var_float(ncid, fx, Values<float>(3, 1).data()));
  size_t start[] = {0, 0, 0};
  size_t count[] = {kRecords, 3, 5};
  NC_TRY(nc_put_vara_double(ncid, tv, start, count, Values<double>(kRecords, 2).data()));
  NC_TRY(nc_put_vara_short(ncid, rs, start, count, Values<short>(kRecords * 3, 3).data()));
  size_t text_count[] = {kRecords, 5};
  std::string text = "abcdefghijklmnopqrstuvwxyz0123456789";
  NC_TRY(nc_put_vara_text(ncid, rc, start, text_count, text.data()));
  NC_TRY(nc_put_vara_schar(ncid, rb, start, count, Values<signed char>(kRecords, 4).data()));
  NC_TRY(nc_put_vara_int(ncid, ri, start, count, Values<int>(kRecords * 3, 5).data()));
  NC_TRY(nc_put_vara_float(ncid, rf, start, count, Values<float>(kRecords * 15, 6).data()));
  size_t partial[] = {kRecords - 3};
  NC_TRY(nc_put_vara_double(ncid, rd, start, partial, Values<double>(kRecords, 7).data()));
  if (cdf5) {
    NC_TRY(
        nc_put_vara_uchar(ncid, rub, start, count, Values<unsigned char>(kRecords * 3, 8).data()));
    auto big = Values<unsigned long long>(kRecords, 9);
    big[1] = std::numeric_limits<uint64_t>::max();
    NC_TRY(nc_put_vara_ulonglong(ncid, ru64, start, count, big.data()));
  }
  return NC_NOERR;
}

// Exactly one record variable, of a type and shape whose record is not a multiple of 4 bytes:
// records follow each other without padding (the spec's "Note on padding").
int OneRecordVariable(int ncid, nc_type type, size_t row, size_t records) {
  int time, x, lon, v;
  NC_TRY(nc_def_dim(ncid, "time", NC_UNLIMITED, &time));
  NC_TRY(nc_def_dim(ncid, "x", 3, &x));
  NC_TRY(DefVar(ncid, "lon", NC_FLOAT, {x}, &lon));
  std::vector<int> dims = {time};
  if (row > 0) {
    int r;
    NC_TRY(nc_def_dim(ncid, "row", row, &r));
    dims.push_back(r);
  }
  NC_TRY(DefVar(ncid, "v", type, dims, &v));
  NC_TRY(nc_enddef(ncid));
  NC_TRY(nc_put_var_float(ncid, lon, Values<float>(3, 1).data()));
  size_t start[] = {0, 0};
  size_t count[] = {records, std::max<size_t>(row, 1)};
  size_t n = records * std::max<size_t>(row, 1);
  if (type == NC_CHAR) {
    std::string text(n, ' ');
    for (size_t i = 0; i < n; ++i) text[i] = static_cast<char>('A' + i % 26);
    return nc_put_vara_text(ncid, v, start, count, text.data());
  }
  if (type == NC_SHORT) return nc_put_vara_short(ncid, v, start, count, Values<short>(n, 2).data());
  return nc_put_vara_schar(ncid, v, start, count, Values<signed char>(n, 3).data());
}

// An unlimited dimension with no record written: record variables of shape (0, ...).
int EmptyRecords(int ncid) {
  int time, x, xv, t, v;
  NC_TRY(nc_def_dim(ncid, "time", NC_UNLIMITED, &time));
  NC_TRY(nc_def_dim(ncid, "x", 2, &x));
  NC_TRY(DefVar(ncid, "x", NC_INT, {x}, &xv));
  NC_TRY(DefVar(ncid, "time", NC_DOUBLE, {time}, &t));
  NC_TRY(DefVar(ncid, "v", NC_FLOAT, {time, x}, &v));
  NC_TRY(PutText(ncid, v, "units", "K"));
  NC_TRY(nc_enddef(ncid));
  return nc_put_var_int(ncid, xv, Values<int>(2, 1).data());
}

int NoVariables(int ncid) {
  int x;
  NC_TRY(nc_def_dim(ncid, "x", 4, &x));
  NC_TRY(PutText(ncid, NC_GLOBAL, "history", "dimensions and attributes only"));
  return nc_enddef(ncid);
}

// nc__enddef with a large header reserve and alignments: gaps after the header and before the
// record section, so "begin" differs from the end of the header.
int Aligned(int ncid) {
  int time, x, a, r1, r2;
  NC_TRY(nc_def_dim(ncid, "time", NC_UNLIMITED, &time));
  NC_TRY(nc_def_dim(ncid, "x", 5, &x));
  NC_TRY(DefVar(ncid, "a", NC_SHORT, {x}, &a));
  NC_TRY(DefVar(ncid, "r1", NC_SHORT, {time, x}, &r1));
  NC_TRY(DefVar(ncid, "r2", NC_CHAR, {time}, &r2));
  NC_TRY(nc__enddef(ncid, 1000, 512, 300, 1024));
  NC_TRY(nc_put_var_short(ncid, a, Values<short>(5, 1).data()));
  size_t start[] = {0, 0};
  size_t count[] = {3, 5};
  NC_TRY(nc_put_vara_short(ncid, r1, start, count, Values<short>(15, 2).data()));
  return nc_put_vara_text(ncid, r2, start, count, "xyz");
}

// UTF-8 names of a dimension, a variable and an attribute.
int Utf8Names(int ncid) {
  int dim, v;
  NC_TRY(nc_def_dim(ncid,
                    "gr\xC3\xB6\xC3\x9F"
                    "e",
                    2, &dim));
  NC_TRY(DefVar(ncid, "temp\xC3\xA9rature", NC_FLOAT, {dim}, &v));
  NC_TRY(PutText(ncid, v, "\xC3\xBCnits",
                 "\xC2\xB0"
                 "C"));
  NC_TRY(nc_enddef(ncid));
  return nc_put_var_float(ncid, v, Values<float>(2, 1).data());
}

// CDF-5 only: fixed, scalar and record variables of the unsigned and 64-bit types, with fill
// values of those types (uint64 beyond int64, so JSON needs an unsigned integer).
int Cdf5Types(int ncid) {
  int time, x, ub, us, ui, i64, u64, s64, rus;
  NC_TRY(nc_def_dim(ncid, "time", NC_UNLIMITED, &time));
  NC_TRY(nc_def_dim(ncid, "x", 3, &x));
  NC_TRY(DefVar(ncid, "ub", NC_UBYTE, {x}, &ub));
  NC_TRY(DefVar(ncid, "us", NC_USHORT, {x}, &us));
  NC_TRY(DefVar(ncid, "ui", NC_UINT, {x}, &ui));
  NC_TRY(DefVar(ncid, "i64", NC_INT64, {x}, &i64));
  NC_TRY(DefVar(ncid, "u64", NC_UINT64, {x}, &u64));
  const unsigned long long u64_fill = std::numeric_limits<uint64_t>::max() - 1;
  NC_TRY(nc_put_att_ulonglong(ncid, u64, "_FillValue", NC_UINT64, 1, &u64_fill));
  const unsigned short us_fill = 65000;
  NC_TRY(nc_put_att_ushort(ncid, us, "_FillValue", NC_USHORT, 1, &us_fill));
  NC_TRY(DefVar(ncid, "scalar_int64", NC_INT64, {}, &s64));
  NC_TRY(DefVar(ncid, "rus", NC_USHORT, {time, x}, &rus));
  NC_TRY(PutAttributesOfEveryType(ncid, NC_GLOBAL, true));
  NC_TRY(nc_enddef(ncid));
  NC_TRY(nc_put_var_uchar(ncid, ub, Values<unsigned char>(3, 1).data()));
  NC_TRY(nc_put_var_ushort(ncid, us, Values<unsigned short>(3, 2).data()));
  NC_TRY(nc_put_var_uint(ncid, ui, Values<unsigned int>(3, 3).data()));
  const long long i64v[] = {std::numeric_limits<long long>::min(), -1, 1ll << 40};
  NC_TRY(nc_put_var_longlong(ncid, i64, i64v));
  const unsigned long long u64v[] = {0, 1ull << 63, std::numeric_limits<uint64_t>::max()};
  NC_TRY(nc_put_var_ulonglong(ncid, u64, u64v));
  const long long s64v = -5;
  NC_TRY(nc_put_var_longlong(ncid, s64, &s64v));
  size_t start[] = {0, 0};
  size_t count[] = {4, 3};
  return nc_put_vara_ushort(ncid, rus, start, count, Values<unsigned short>(12, 4).data());
}

int CreateMode(Netcdf3Format format) {
  switch (format) {
    case Netcdf3Format::kClassic:
      return NC_CLOBBER;
    case Netcdf3Format::k64BitOffset:
      return NC_CLOBBER | NC_64BIT_OFFSET;
    case Netcdf3Format::kCdf5:
      return NC_CLOBBER | NC_64BIT_DATA;
  }
  return NC_CLOBBER;
}

Status NcError(int status, std::string_view what, const std::string& path) {
  return InternalError("{}: {}: {}", path, what, nc_strerror(status));
}

std::vector<Netcdf3Fixture> MakeFixtures() {
  std::vector<Netcdf3Fixture> out;
  for (auto format : {Netcdf3Format::kClassic, Netcdf3Format::k64BitOffset, Netcdf3Format::kCdf5}) {
    bool cdf5 = format == Netcdf3Format::kCdf5;
    auto add = [&](std::string name, std::string description, std::function<int(int)> f) {
      out.push_back(
          {name + "_" + Netcdf3FormatName(format), format, std::move(description), std::move(f)});
    };
    add("fixed_types", "fixed-size and scalar variables and attributes of every type",
        [cdf5](int ncid) { return FixedTypes(ncid, cdf5); });
    add("records", "several record variables of every type, one partly written",
        [cdf5](int ncid) { return Records(ncid, cdf5); });
    add("one_record_short", "exactly one record variable: short (time, 3), 6-byte records",
        [](int ncid) { return OneRecordVariable(ncid, NC_SHORT, 3, 5); });
    add("one_record_char", "exactly one record variable: char (time, 3), 3-byte records",
        [](int ncid) { return OneRecordVariable(ncid, NC_CHAR, 3, 4); });
    add("one_record_byte", "exactly one record variable: byte (time), 1-byte records",
        [](int ncid) { return OneRecordVariable(ncid, NC_BYTE, 0, 9); });
    add("empty_records", "an unlimited dimension with 0 records", EmptyRecords);
    add("no_variables", "dimensions and global attributes only", NoVariables);
    add("aligned", "header reserve and alignment gaps (nc__enddef)", Aligned);
    add("utf8_names", "UTF-8 names of a dimension, a variable and an attribute", Utf8Names);
  }
  out.push_back({"cdf5_types", Netcdf3Format::kCdf5,
                 "fixed, scalar and record variables of the CDF-5 types", Cdf5Types});
  return out;
}

}  // namespace

std::string Netcdf3FormatName(Netcdf3Format format) {
  switch (format) {
    case Netcdf3Format::kClassic:
      return "classic";
    case Netcdf3Format::k64BitOffset:
      return "64bit_offset";
    case Netcdf3Format::kCdf5:
      return "cdf5";
  }
  return "unknown";
}

void PrintTo(const Netcdf3Fixture& fixture, std::ostream* os) { *os << fixture.name; }

const std::vector<Netcdf3Fixture>& Netcdf3Fixtures() {
  static const std::vector<Netcdf3Fixture> fixtures = MakeFixtures();
  return fixtures;
}

const Netcdf3Fixture& Netcdf3FixtureNamed(const std::string& name) {
  for (const auto& f : Netcdf3Fixtures()) {
    if (f.name == name) return f;
  }
  ADD_FAILURE() << "no NetCDF-3 fixture named " << name;
  std::abort();
}

Result<std::string> WriteNetcdf3Fixture(const Netcdf3Fixture& fixture,
                                        const std::filesystem::path& dir) {
  std::string path = (dir / (fixture.name + ".nc")).string();
  int ncid;
  if (int s = nc_create(path.c_str(), CreateMode(fixture.format), &ncid); s != NC_NOERR) {
    return NcError(s, "nc_create", path);
  }
  int s = fixture.define_and_write(ncid);
  int close_status = nc_close(ncid);
  if (s != NC_NOERR) return NcError(s, fixture.name, path);
  if (close_status != NC_NOERR) return NcError(close_status, "nc_close", path);
  return path;
}

Result<std::string> WriteLargeRecordFile(const std::filesystem::path& path, uint64_t records,
                                         int variables, uint64_t row_length, Netcdf3Format format) {
  std::string p = path.string();
  int ncid;
  if (int s = nc_create(p.c_str(), CreateMode(format), &ncid); s != NC_NOERR) {
    return NcError(s, "nc_create", p);
  }
  auto write = [&]() -> int {
    int time, row, tv;
    NC_TRY(nc_def_dim(ncid, "time", NC_UNLIMITED, &time));
    NC_TRY(nc_def_dim(ncid, "row", row_length, &row));
    NC_TRY(DefVar(ncid, "time", NC_DOUBLE, {time}, &tv));
    std::vector<int> ids(variables);
    for (int k = 0; k < variables; ++k) {
      NC_TRY(DefVar(ncid, ("v" + std::to_string(k)).c_str(), NC_FLOAT, {time, row}, &ids[k]));
    }
    NC_TRY(nc_set_fill(ncid, NC_NOFILL, nullptr));
    NC_TRY(nc_enddef(ncid));
    size_t start[] = {0, 0};
    size_t count[] = {records, row_length};
    std::vector<double> t(records);
    std::iota(t.begin(), t.end(), 0.0);
    NC_TRY(nc_put_vara_double(ncid, tv, start, count, t.data()));
    for (int k = 0; k < variables; ++k) {
      NC_TRY(nc_put_vara_float(ncid, ids[k], start, count,
                               Values<float>(records * row_length, k).data()));
    }
    return NC_NOERR;
  };
  int s = write();
  int close_status = nc_close(ncid);
  if (s != NC_NOERR) return NcError(s, "writing the large record file", p);
  if (close_status != NC_NOERR) return NcError(close_status, "nc_close", p);
  return p;
}

}  // namespace kerchunk::testing
