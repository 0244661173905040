// Small NetCDF-3 files generated at test time with the netCDF-C library, in the three formats
// (classic, 64-bit offset, CDF-5), covering what a NetCDF-3 translator must get right: every
// type (CDF-5's unsigned and 64-bit ones included), attributes of every type, scalars, fixed
// and record variables, exactly one record variable of an odd-sized type (unpadded records),
// several record variables (padded records), records left unwritten (fill values in the file),
// an unlimited dimension with 0 records, header and record-section alignment gaps, UTF-8 names.
// Link kerchunk_test_netcdf3_fixtures to use them.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <ostream>
#include <string>
#include <vector>

#include "kerchunk/util/status.h"

namespace kerchunk::testing {

enum class Netcdf3Format { kClassic, k64BitOffset, kCdf5 };

/// "classic", "64bit_offset" or "cdf5" (used in fixture names).
std::string Netcdf3FormatName(Netcdf3Format format);

/// One generated file: `define_and_write` gets a freshly created file in define mode, defines
/// dimensions, variables and attributes, leaves define mode and writes the data; it returns a
/// netCDF-C status (NC_NOERR on success).
struct Netcdf3Fixture {
  std::string name;  ///< unique, e.g. "records_cdf5"; the file is written as "<name>.nc"
  Netcdf3Format format = Netcdf3Format::kClassic;
  std::string description;
  std::function<int(int ncid)> define_and_write;
};

/// Prints the fixture's name (GoogleTest uses it for parameterised test failures).
void PrintTo(const Netcdf3Fixture& fixture, std::ostream* os);

/// Every fixture: each content in each format, plus the CDF-5-only type fixtures.
const std::vector<Netcdf3Fixture>& Netcdf3Fixtures();

/// The fixture with this name; aborts the test binary (via a failed assertion) when unknown.
const Netcdf3Fixture& Netcdf3FixtureNamed(const std::string& name);

/// Writes a fixture to dir/<name>.nc and returns the path. Errors carry netCDF-C's message.
Result<std::string> WriteNetcdf3Fixture(const Netcdf3Fixture& fixture,
                                        const std::filesystem::path& dir);

/// A large file for throughput measurements: a double time(time) coordinate plus `variables`
/// float record variables "v0", "v1", ... of shape (time, row_length), `records` records
/// (deterministic values). 100k records x 4 variables x 8 floats is about 14 MB.
Result<std::string> WriteLargeRecordFile(const std::filesystem::path& path, uint64_t records,
                                         int variables, uint64_t row_length,
                                         Netcdf3Format format = Netcdf3Format::k64BitOffset);

}  // namespace kerchunk::testing
