// The Python program that times Python kerchunk for `kerchunk bench --compare-python`.
#pragma once

namespace kerchunk::bench::internal {

/// Python 3 source. Argument: a JSON config file {"files": [...], "concat_dim": "time",
/// "output": where to write kerchunk's combined JSON, "ours": our JSON (timed with json.load
/// too), "repeat": N, "kerchunk_path": directory to put first on sys.path ("" for none),
/// "probe": true to stop after the imports}.
/// Prints one JSON object: {"importable": false, "error": ...} or the timings (see
/// python_compare.cpp for the fields).
extern const char* const kPythonKerchunkBenchScript;

}  // namespace kerchunk::bench::internal
