// Sizes of the Kerchunk JSON under general-purpose compressors, the baseline a packed index
// has to beat: what a data centre gets today by gzipping or zstd-ing its reference files.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "kerchunk/util/status.h"

namespace kerchunk::bench::internal {

/// One compressor command line, reading standard input and writing standard output.
struct Compressor {
  std::string label;              ///< "gzip -6"
  std::vector<std::string> argv;  ///< {"gzip", "-6", "-c"}
};

/// gzip -6 and zstd -19 (zstd with -T0: its threads change the time, not materially the size).
std::vector<Compressor> StandardCompressors();

/// The compressed size of `path`, or nullopt when the program is not installed. An error when
/// the program runs and fails.
Result<std::optional<uint64_t>> CompressedSize(const Compressor& compressor,
                                               const std::string& path);

}  // namespace kerchunk::bench::internal
