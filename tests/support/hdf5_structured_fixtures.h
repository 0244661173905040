// A generated HDF5 file of compound datasets for the tests of their translation to zarr
// structured dtypes: packed layouts (which become byte-range references) next to padded ones and
// members zarr cannot hold (which stay unsupported). Written with the HDF5 C API.
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

#include "kerchunk/util/status.h"

namespace kerchunk::testing {

/// The packed compound type of /packed, /compact, /unwritten and /grid/contiguous, 48 bytes:
/// i int32 LE, f float64 LE, s |S5, flag h5py bool enum, nested {x uint16 LE, y float32 LE},
/// v float32 LE [2][3]. Its zarr dtype:
inline constexpr std::string_view kPackedDtypeJson =
    R"([["i","<i4"],["f","<f8"],["s","|S5"],["flag","|b1"],["nested",[["x","<u2"],["y","<f4"]]],)"
    R"(["v","<f4",[2,3]]])";

/// Writes "structured.h5" in `dir` and returns its path. Values are deterministic; the root's
/// arrays share one length so that xarray opens them as one dataset:
///   /packed           packed compound (12), chunks (4), shuffle + deflate, fill value {i=-1, ...}
///   /compact          packed compound (12) compact
///   /unwritten        packed compound (12), chunks (4), fill value {i=-1, ...}, only chunk 0
///                     written
///   /complex          {r float64, i float64} (12): h5py's complex convention
///   /grid/contiguous  packed compound (3,2) contiguous, default fill value (zeros)
///   /big_endian       {a int32 BE, b float64 BE} (3)
///   /padded           {a int8 at 0, b int32 at 4} (3): a C struct with alignment padding
///   /vlen_member      {a int32, s variable-length string} (2)
Result<std::string> WriteStructuredFixture(const std::filesystem::path& dir);

/// The fill value of /packed and /unwritten in the file type's bytes (48 bytes).
std::string PackedFillBytes();

}  // namespace kerchunk::testing
