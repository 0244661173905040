// `--identical-dims NAME` naming no variable was a warning deep in the combine step, after every
// file was read; a typo there silently concatenates what should have been taken once. The first
// input is read up front and every name checked against it.
#pragma once

#include <string>
#include <vector>

#include "kerchunk/refs/reference_set.h"
#include "kerchunk/scan/file_scan.h"
#include "kerchunk/util/status.h"

namespace kerchunk::cli {

/// InvalidArgument naming the option, the name and `source` when one of `names` is not an
/// array of `refs` (a ".zarray" key or chunk references under that path).
Status CheckIdenticalDims(const std::vector<std::string>& names, const ReferenceSet& refs,
                          const std::string& source);

/// For scan: translates the first file of `files` and checks `names` against it. OK when there
/// is no name or the file cannot be read (the scan reports that).
Status CheckIdenticalDimsInFirstFile(const std::vector<std::string>& names,
                                     const std::vector<std::string>& files,
                                     const FileScanOptions& options);

/// For combine: reads the first part that is not empty and checks `names` against it (OK when
/// it cannot be read).
Status CheckIdenticalDimsInFirstPart(const std::vector<std::string>& names,
                                     const std::vector<std::string>& parts);

}  // namespace kerchunk::cli
