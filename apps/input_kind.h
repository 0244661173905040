// Catching the wrong kind of input before a command reads it: a data file given where a
// reference index is expected, or a packed index given to a command that wants plain Kerchunk
// JSON. Judged by the first bytes, so the message says what the file is instead of reporting a
// JSON syntax error inside it.
#pragma once

#include <string>

#include "kerchunk/util/status.h"

namespace kerchunk::cli {

/// What a command accepts where it reads a reference index.
enum class IndexInput {
  kPlain,         ///< Kerchunk JSON only (pack, combine, bench)
  kPlainOrPacked  ///< Kerchunk JSON or a packed file (verify)
};

/// InvalidArgument naming `path` when it is an HDF5 (signature at 0, 512, 1024, ...) or
/// NetCDF-3 file ("this is a data file, not a reference index; run kerchunk scan first"), or,
/// for kPlain, a packed file ("already packed"). OK for anything else, including a file that
/// cannot be read and "-" (the command reports those).
Status CheckIndexInput(const std::string& path, IndexInput accepted);

/// InvalidArgument naming `path` when it is a data file (for unpack, which reads packed files).
Status CheckNotDataFile(const std::string& path);

/// InvalidArgument naming `path` when it is a packed file (for bench, which also takes data
/// files).
Status CheckNotPacked(const std::string& path);

}  // namespace kerchunk::cli
