// The Python side of `kerchunk bench --xarray-open`, run by xarray_open.cpp.
#pragma once

namespace kerchunk::bench::internal {

/// Python 3 source. Argument: a JSON config file {"route": "fsspec" | "engine", "index": path,
/// "package_path": directory to put first on sys.path ("" for none), "probe": true to stop
/// after the imports}. Prints one JSON object: {"importable": false, "error": ...}, or
/// {"importable": true, "versions", "open_seconds", "select_seconds", "selection", "digest",
/// "start_rss_bytes", "peak_rss_bytes"}.
extern const char* const kXarrayOpenScript;

}  // namespace kerchunk::bench::internal
