// Reading the reference sets to verify: plain Kerchunk JSON or a packed file, told apart by the
// packed format's leading "format" field.
#pragma once

#include <string>
#include <string_view>

#include "kerchunk/refs/reference_set.h"
#include "kerchunk/util/status.h"

namespace kerchunk::verify::internal {

struct LoadedReferences {
  ReferenceSet refs;
  std::string format;  ///< "Kerchunk JSON" or "packed (checksum kcd1:...)"
};

/// True when the file starts like a packed file (pack::IsPackedFile).
bool IsPackedFile(const std::string& path);

/// Reads and expands a reference file. A packed file is opened with its reader and expanded
/// completely, which checks every checkpoint and the checksum of the reference set it expands
/// to. NotFound/IoError when the file cannot be read; other codes when its content is invalid
/// (the message says which format was expected).
Result<LoadedReferences> LoadReferences(const std::string& path);

/// True for errors that mean the file could not be read at all (not that it is invalid).
bool IsUnreadable(const Status& status);

}  // namespace kerchunk::verify::internal
