// `kerchunk bench --xarray-open`: how long a user waits for xarray to have a Dataset, and how
// much memory that takes, through three routes on the same index:
//   (a) fsspec's ReferenceFileSystem over the Kerchunk JSON + xr.open_dataset(engine="zarr"),
//       as fsspec and kerchunk document it;
//   (b) xr.open_dataset(engine="kerchunk_packed") on the packed file;
//   (c) the same engine on the plain Kerchunk JSON.
// Each route runs in its own Python process (so each peak RSS is its own), opens the Dataset,
// then reads one small selection of its largest variable; the three selections must be equal
// (the result check) before any figure is reported.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "kerchunk/util/status.h"

namespace kerchunk::bench {

struct XarrayOpenOptions {
  /// Directory put first on the Python path, holding the kerchunk_packed package (a build's
  /// `build/python`); empty: the KERCHUNK_PACKED_PATH environment variable, else only what
  /// the interpreter finds (an installed package).
  std::string package_path;
  std::string interpreter = "/usr/bin/python3";
};

/// One route's figures.
struct XarrayOpenRun {
  std::string route;             ///< "fsspec + zarr (JSON)", "kerchunk_packed (packed)", ...
  double open_seconds = 0;       ///< until xr.open_dataset returned
  double select_seconds = 0;     ///< reading the selection's values
  uint64_t start_rss_bytes = 0;  ///< after the imports, before the open
  uint64_t peak_rss_bytes = 0;   ///< of the process, at the end
};

struct XarrayOpenResult {
  std::string selection;            ///< e.g. "tas[0, 0:16, 0:16]"
  std::string versions;             ///< "xarray 2023.01.0, zarr 2.13.6, fsspec 2022.11.0"
  std::vector<XarrayOpenRun> runs;  ///< (a), (b), (c) in that order
};

/// Checks, in a second or so, that the interpreter imports xarray, zarr, fsspec and
/// kerchunk_packed (Unsupported naming the import error and the path tried otherwise).
Status CheckXarrayOpen(const XarrayOpenOptions& options);

/// Runs the three routes on `json_path` and `packed_path` (same reference set; its URLs must
/// be readable, so that the selection can be read). DataLoss when a route reads different
/// values than route (a); Internal when a script fails (with the end of its error output).
/// `scratch` names a file the configuration may be written to.
Result<XarrayOpenResult> RunXarrayOpen(const std::string& json_path, const std::string& packed_path,
                                       const std::string& scratch,
                                       const XarrayOpenOptions& options);

}  // namespace kerchunk::bench
