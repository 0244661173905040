// `kerchunk bench --compare-python`: Python kerchunk on the same files, side by side.
//
// Runs a Python interpreter (Debian's /usr/bin/python3 by default, which has numpy, h5py, zarr
// and fsspec) with a small script kept in this library. The script imports kerchunk from a
// checkout given by the caller (no installation needed), times SingleHdf5ToZarr per file and
// MultiZarrToZarr as its documentation combines a series, writes kerchunk's JSON, and times
// json.load of that JSON and of ours.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "kerchunk/util/status.h"

namespace kerchunk::bench {

struct PythonCompareOptions {
  /// Directory put first on the Python path (a kerchunk checkout such as `git worktree add
  /// DIR 0.2.2` of the kerchunk repository); empty: the KERCHUNK_PYTHON_PATH environment
  /// variable, else only what the interpreter finds by itself.
  std::string kerchunk_path;
  std::string interpreter = "/usr/bin/python3";
};

/// What Python kerchunk did (medians over the repeats).
struct PythonResult {
  std::string version;      ///< kerchunk.__version__
  std::string python;       ///< interpreter version
  std::string search_path;  ///< the kerchunk directory used ("" when none)
  bool real_ujson = false;  ///< false: json stood in for ujson (slower dump than kerchunk's)
  double scan_seconds = 0;  ///< translate every file + combine
  double translate_seconds = 0;
  double combine_seconds = 0;
  double write_seconds = 0;  ///< json.dump of the combined references
  uint64_t json_bytes = 0;
  std::string json_path;           ///< where its JSON was written
  double load_theirs_seconds = 0;  ///< json.load of its JSON
  double load_ours_seconds = 0;    ///< json.load of ours
  uint64_t peak_rss_bytes = 0;     ///< of the Python process
};

/// Checks, in a second or so, that the interpreter exists and imports kerchunk (the errors of
/// RunPythonKerchunk), so that a bench run fails before its C++ steps rather than after.
Status CheckPythonKerchunk(const PythonCompareOptions& options);

/// Runs Python kerchunk over `files` (combined along `concat_dim` when there are several),
/// writing its JSON to `output_json`; `our_json` is timed with json.load as well. Errors:
/// NotFound when the interpreter is missing; Unsupported, with the import error, when kerchunk
/// cannot be imported (naming the path tried and how to provide one); Internal when the script
/// fails (with the end of its standard error).
Result<PythonResult> RunPythonKerchunk(const std::vector<std::string>& files,
                                       const std::string& concat_dim, const std::string& our_json,
                                       const std::string& output_json, unsigned repeat,
                                       const PythonCompareOptions& options);

}  // namespace kerchunk::bench
