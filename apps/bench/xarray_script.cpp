// The Python side of `kerchunk bench --xarray-open`, run as `python3 -c <this script>
// <config.json>`, once per route so that each process's peak RSS is that route's. Kept as one
// string so the installed program needs no data file; edit it as Python.
#include "bench/xarray_script.h"

namespace kerchunk::bench::internal {

const char* const kXarrayOpenScript = R"PYTHON(
import hashlib
import json
import resource
import sys
import time

config = json.load(open(sys.argv[1]))
if config.get("package_path"):
    sys.path.insert(0, config["package_path"])
try:
    import numpy as np
    import xarray as xr
    import zarr
    import fsspec
    import kerchunk_packed  # noqa: F401 (the engine's package)
except Exception as e:  # report any import problem, not only ImportError
    print(json.dumps({"importable": False, "error": "%s: %s" % (type(e).__name__, e)}))
    sys.exit(0)
def package_version(name):
    """The version, or Debian's package version where the metadata says "999" (bookworm's
    python3-xarray ships xarray-999.egg-info)."""
    import subprocess
    from importlib.metadata import version

    v = version(name)
    if v == "999":
        dpkg = subprocess.run(["dpkg-query", "-W", "-f", "${Version}", "python3-" + name],
                              capture_output=True, text=True)
        v = "Debian " + dpkg.stdout if dpkg.returncode == 0 else v
    return v


versions = ", ".join("%s %s" % (p, package_version(p)) for p in ("xarray", "zarr", "fsspec"))
if config.get("probe"):
    print(json.dumps({"importable": True, "versions": versions}))
    sys.exit(0)


def rss_bytes():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * resource.getpagesize()


def peak_rss_bytes():
    """VmHWM, this process's own peak. Not getrusage's ru_maxrss: after fork + exec that keeps
    the parent's peak at the fork (the bench's, hundreds of MB), whatever the child uses."""
    with open("/proc/self/status") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) * 1024
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024


def fix_fsspec_missing_keys():
    """fsspec before 2023.12 raises KeyError from ReferenceFileSystem.cat() for a chunk that was
    never written even with on_error="omit" (fsspec #1435), so zarr fails where it should use
    the fill value; this does what 2023.12 does (as tests/client/read_back.py)."""
    from fsspec.implementations.reference import ReferenceFileSystem

    original = ReferenceFileSystem.cat

    def cat(self, path, recursive=False, on_error="raise", **kwargs):
        if not isinstance(path, list) or on_error == "raise":
            return original(self, path, recursive=recursive, on_error=on_error, **kwargs)
        present = [p for p in path if self._strip_protocol(p) in self.references]
        return original(self, present, recursive=recursive, on_error=on_error, **kwargs) if present else {}

    ReferenceFileSystem.cat = cat


def open_dataset(route, index):
    if route == "fsspec":
        return xr.open_dataset(
            "reference://", engine="zarr",
            backend_kwargs={"consolidated": False,
                            "storage_options": {"fo": index, "remote_protocol": "file"}})
    return xr.open_dataset(index, engine="kerchunk_packed")


def small_selection(ds):
    """Index 0 of the first dimension and up to 16 elements of the others, of the largest
    data variable (names sorted to break ties): what a first look at a dataset reads."""
    name = sorted(ds.data_vars, key=lambda n: (-ds[n].size, n))[0]
    var = ds[name]
    sel = {d: (0 if i == 0 else slice(0, min(16, var.sizes[d]))) for i, d in enumerate(var.dims)}
    text = "%s[%s]" % (name, ", ".join("0" if i == 0 else "0:%d" % sel[d].stop
                                      for i, d in enumerate(var.dims)))
    return var.isel(sel), text


fix_fsspec_missing_keys()
start_rss = rss_bytes()
t0 = time.perf_counter()
ds = open_dataset(config["route"], config["index"])
t1 = time.perf_counter()
selected, selection = small_selection(ds)
values = np.ascontiguousarray(selected.values)
t2 = time.perf_counter()
digest = hashlib.sha256(str((values.dtype.str, values.shape)).encode() + values.tobytes()).hexdigest()
print(json.dumps({
    "importable": True,
    "versions": versions,
    "open_seconds": t1 - t0,
    "select_seconds": t2 - t1,
    "selection": selection,
    "digest": digest,
    "start_rss_bytes": start_rss,
    "peak_rss_bytes": peak_rss_bytes(),
}))
)PYTHON";

}  // namespace kerchunk::bench::internal
