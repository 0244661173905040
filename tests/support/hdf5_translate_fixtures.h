// Generated HDF5 files for the tests of the HDF5 -> Kerchunk translation (ScanHdf5File): one
// file holding a dataset or group for each feature the translation handles, written with the
// HDF5 C API. See WriteTranslationFixture for the contents.
#pragma once

#include <filesystem>
#include <string>

#include "kerchunk/util/status.h"

namespace kerchunk::testing {

/// Writes "translate.h5" in `dir` and returns its path. Contents (values are deterministic):
///   /                  attributes title (fixed string), history (vlen string), version (int),
///                      empty (null dataspace), _NCProperties (hidden)
///   /g1                group with attributes nan (float64 NaN), vec (float32[3]), one (int16[1]),
///                      grid (int32[2][2]), names (fixed string[2]), flag (bool enum)
///   /g1/temp           float32 (5,7) chunks (2,3) shuffle+deflate(4), fill 1.5, units "K"
///   /x, /y             dimension scales (float64 (5), (7)), /y has a _FillValue attribute -9.5
///   /g1/temp attached to /x and /y (DIMENSION_LIST)
///   /dim_only          dimension scale float32 (5) never written (a netCDF dimension only)
///   /be_int16          big-endian int16 (3,4) contiguous
///   /fixed_str         |S6 (3) contiguous
///   /vlen_str          UTF-8 vlen strings (4) chunked (3)
///   /vlen_scalar       scalar vlen string
///   /scalar            scalar float64 contiguous
///   /compact           int32 (2,3) compact
///   /null_space        null dataspace (skipped)
///   /fletcher          int32 (10) chunks (4) fletcher32
///   /unwritten         float32 (8) chunks (2), NaN fill, only chunks 0 and 2 written
///   /never_written     int16 (4) contiguous, never written
///   /bools             h5py boolean enum (4)
///   /time              float64 (3) units "days since 2000-01-01", _Netcdf4Dimid attribute
///   /compound          compound {a int32, b float64} (3)
///   /nbit              int32 (6) chunks (3) with the nbit filter (no numcodecs equivalent)
Result<std::string> WriteTranslationFixture(const std::filesystem::path& dir);

/// Writes "many_chunks.h5" (int32, `chunks` chunks of 16 elements, v1 B-tree) and returns its
/// path.
Result<std::string> WriteManyChunksFixture(const std::filesystem::path& dir, uint64_t chunks);

}  // namespace kerchunk::testing
