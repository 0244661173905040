// The Python side of `kerchunk bench --compare-python`, run by python_compare.cpp as
// `python3 -c <this script> <config.json>`. Kept as one string so the installed program needs
// no data file; edit it as Python.
#include "bench/python_script.h"

namespace kerchunk::bench::internal {

const char* const kPythonKerchunkBenchScript = R"PYTHON(
# Times Python kerchunk on the files `kerchunk bench` scanned, the way its documentation builds a
# combined index: SingleHdf5ToZarr (NetCDF3ToZarr for classic files) per file with
# inline_threshold=0, then MultiZarrToZarr along the concat dimension (inline_threshold=0 too:
# by default it would inline chunks under 500 bytes, all-fill chunks among them), with every
# variable that lacks that dimension listed in identical_dims (as our scan takes them from the
# first file).
# Prints one JSON object on standard output.
import json
import os
import resource
import statistics
import sys
import time

config = json.load(open(sys.argv[1]))
if config.get("kerchunk_path"):
    sys.path.insert(0, config["kerchunk_path"])
try:
    import ujson  # noqa: F401
    real_ujson = True
except ImportError:
    sys.modules["ujson"] = json  # Debian has no python3-ujson; kerchunk only needs its API
    real_ujson = False
try:
    import kerchunk
    from kerchunk.combine import MultiZarrToZarr
    from kerchunk.hdf import SingleHdf5ToZarr
    from kerchunk.netCDF3 import NetCDF3ToZarr
except Exception as e:  # report any import problem, not only ImportError
    print(json.dumps({"importable": False, "error": "%s: %s" % (type(e).__name__, e)}))
    sys.exit(0)
if config.get("probe"):  # only asked whether kerchunk imports, before the C++ steps run
    print(json.dumps({"importable": True, "version": kerchunk.__version__}))
    sys.exit(0)


def translate(path):
    if "://" not in path:
        with open(path, "rb") as f:
            magic = f.read(4)
        if magic[:3] == b"CDF":
            return NetCDF3ToZarr(path, inline_threshold=0).translate()
        return SingleHdf5ToZarr(path, path, inline_threshold=0).translate()
    # A URL (http(s)://, s3://): one fsspec file per URL, as kerchunk's documentation opens
    # them; its first block holds the magic number, so looking costs no extra request.
    import fsspec
    with fsspec.open(path, "rb") as f:
        magic = f.read(4)
        f.seek(0)
        if magic[:3] != b"CDF":
            return SingleHdf5ToZarr(f, path, inline_threshold=0).translate()
    return NetCDF3ToZarr(path, inline_threshold=0).translate()


def identical_dims(refs, concat):
    refs = refs.get("refs", refs)
    names = []
    for key, value in refs.items():
        if not key.endswith("/.zattrs"):
            continue
        name = key[: -len("/.zattrs")]
        if "/" in name or name + "/.zarray" not in refs or name == concat:
            continue
        if concat not in json.loads(value).get("_ARRAY_DIMENSIONS", []):
            names.append(name)
    return sorted(names)


def scan_once(files, concat):
    start = time.perf_counter()
    parts = [translate(f) for f in files]
    translated = time.perf_counter()
    if len(parts) > 1:
        same = identical_dims(parts[0], concat)
        combined = MultiZarrToZarr(
            parts, concat_dims=[concat], identical_dims=same, inline_threshold=0
        ).translate()
    else:
        combined = parts[0]
    combined_at = time.perf_counter()
    with open(config["output"], "w") as out:
        json.dump(combined, out)
    written = time.perf_counter()
    return combined_at - start, translated - start, combined_at - translated, written - combined_at


def load_seconds(path, repeat):
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        with open(path) as f:
            json.load(f)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


repeat = max(1, int(config.get("repeat", 1)))
runs = [scan_once(config["files"], config["concat_dim"]) for _ in range(repeat)]
median = lambda i: statistics.median(r[i] for r in runs)
print(json.dumps({
    "importable": True,
    "version": getattr(kerchunk, "__version__", "unknown"),
    "python": sys.version.split()[0],
    "real_ujson": real_ujson,
    "scan_seconds": median(0),
    "translate_seconds": median(1),
    "combine_seconds": median(2),
    "write_seconds": median(3),
    "json_bytes": os.path.getsize(config["output"]),
    "load_theirs_seconds": load_seconds(config["output"], repeat),
    "load_ours_seconds": load_seconds(config["ours"], repeat),
    "peak_rss_bytes": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024,
}))
)PYTHON";

}  // namespace kerchunk::bench::internal
