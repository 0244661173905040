// The oracle of the NetCDF-3 tests: netCDF-C reading the same file.
#pragma once

#include <gtest/gtest.h>

#include <cstdint>
#include <string>

#include "kerchunk/refs/reference_set.h"

namespace kerchunk::testing {

/// Checks the references of the NetCDF-3 file at `path` against what netCDF-C reports for it:
/// - root: ".zgroup", and ".zattrs" equal to the global attributes;
/// - per variable: .zarray dtype, shape, chunks ((1, rest...) for record variables, the whole
///   shape otherwise), no compressor or filters, fill_value from a _FillValue of the variable's
///   type; .zattrs equal to the attributes (minus that _FillValue) plus _ARRAY_DIMENSIONS;
/// - values: every chunk present, read from the file (or inline data), converted from
///   big-endian and placed in the array, equal bit for bit to nc_get_var.
/// Attribute values are derived from netCDF-C's native values, independently of the translator.
/// Adds the number of variables whose values were compared to `*variables_compared`.
::testing::AssertionResult MatchesNetcdfC(const std::string& path, const ReferenceSet& refs,
                                          uint64_t* variables_compared = nullptr);

}  // namespace kerchunk::testing
