"""Shared helpers of the kerchunk_packed tests (run by ctest with Debian's python3; see
CMakeLists.txt for the environment: PYTHONPATH holds build/python and tests/client)."""
import os
import pathlib
import subprocess
import tempfile
import unittest

import numpy as np

KERCHUNK = os.environ.get("KERCHUNK_BIN", "kerchunk")
SHARED_DIR = pathlib.Path(os.environ.get("KERCHUNK_SHARED_DIR", "../shared"))
SAMPLES_DIR = pathlib.Path(os.environ.get("KERCHUNK_SAMPLES_DIR", "data/samples"))


def kerchunk(*args):
    """Runs the kerchunk program; raises with its error output when it fails."""
    run = subprocess.run([KERCHUNK, *map(str, args)], capture_output=True, text=True)
    if run.returncode != 0:
        raise RuntimeError(run.stderr.strip())  # "kerchunk scan: error: ..." names the input
    return run


def scan_and_pack(files, directory, concat_dim=None):
    """(plain JSON, packed) index paths of `files` scanned (and combined along concat_dim)."""
    plain = pathlib.Path(directory) / "refs.json"
    packed = pathlib.Path(directory) / "refs.packed.json"
    options = ["--concat-dim", concat_dim] if concat_dim else []
    kerchunk("scan", "-q", *files, *options, "-o", plain)
    kerchunk("pack", "-q", plain, "-o", packed)
    return plain, packed


def write_series(directory, files=3, sparse=True):
    """A small NetCDF-4 series: tas(time, lat, lon) float32 chunks (1, 4, 4) zlib, a time
    coordinate, and (with sparse) "sparse" (fill value -7), of which only the first chunk of
    each file's second time step is written (the others have no reference: zarr must use the
    fill value). Returns the paths."""
    import netCDF4

    paths = []
    for f in range(files):
        path = pathlib.Path(directory) / f"day{f}.nc"
        with netCDF4.Dataset(path, "w") as ds:
            ds.createDimension("time", None)
            ds.createDimension("lat", 8)
            ds.createDimension("lon", 12)
            t = ds.createVariable("time", "f8", ("time",))
            t.units = "days since 2000-01-01"
            t[:] = np.arange(2) + 2 * f
            tas = ds.createVariable("tas", "f4", ("time", "lat", "lon"), zlib=True, chunksizes=(1, 4, 4))
            tas.units = "K"
            tas[:] = (np.arange(2 * 8 * 12, dtype="f4").reshape(2, 8, 12) + 1000 * f)
            if sparse:
                s = ds.createVariable("sparse", "i2", ("time", "lat", "lon"), chunksizes=(1, 4, 4),
                                      fill_value=-7)
                s[1, 0:4, 0:4] = np.full((4, 4), f + 1, dtype="i2")
        paths.append(str(path))
    return paths


class TempDirTestCase(unittest.TestCase):
    """A test case with a temporary folder `self.dir` (a pathlib.Path)."""

    def setUp(self):
        self._tmp = tempfile.TemporaryDirectory(prefix="kerchunk_packed_test_")
        self.dir = pathlib.Path(self._tmp.name)

    def tearDown(self):
        self._tmp.cleanup()


def shared_series():
    """(name, files) of every series folder in ../shared/data/timeseries, [] when absent. A
    file named *COMBINED_reference* is a folder's expected combination, not one of its parts."""
    root = SHARED_DIR / "data" / "timeseries"
    if not root.is_dir():
        return []
    out = []
    for folder in sorted(p for p in root.iterdir() if p.is_dir()):
        files = sorted(str(p) for p in folder.iterdir() if p.is_file() and "COMBINED" not in p.name)
        if files:
            out.append((folder.name, files))
    return out


def record_dimension(path):
    """The unlimited dimension of a NetCDF file ("time" when it has none)."""
    import netCDF4

    with netCDF4.Dataset(path) as ds:
        for name, dim in ds.dimensions.items():
            if dim.isunlimited():
                return name
    return "time"
