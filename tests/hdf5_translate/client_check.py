#!/usr/bin/python3
"""Real-client check of HDF5 translations: opens Kerchunk references written by our C++
translator with fsspec's ReferenceFileSystem + zarr + xarray, exactly as users do, and compares
every array with h5py's reading of the original file (and, for netCDF-4 files, every variable of
xarray's netCDF4 reading).

usage: client_check.py ORIGINAL.h5 REFS.json [ORIGINAL REFS ...]
Exit status: 0 all equal, 1 a difference, 77 the Python stack (xarray, zarr, fsspec, h5py,
netCDF4) is not installed.
"""
import os
import sys

try:
    import fsspec
    import h5py
    import netCDF4  # noqa: F401  (xarray's netcdf4 engine)
    import numpy as np
    import xarray as xr
    import zarr
except ImportError as e:  # pragma: no cover
    print(f"skipping: {e}")
    sys.exit(77)


def same(a, b):
    a, b = np.asarray(a), np.asarray(b)
    if a.shape != b.shape:
        return False
    if a.dtype.kind == "O" or b.dtype.kind == "O":

        def norm(x):  # h5py gives bytes and numpy arrays where zarr's JSON gives str and lists
            if isinstance(x, bytes):
                return x.decode()
            return x.tolist() if isinstance(x, np.ndarray) else x

        return all(norm(x) == norm(y) for x, y in zip(a.ravel().tolist(), b.ravel().tolist()))
    if a.dtype.kind in "fc":
        return np.array_equal(a, b, equal_nan=True)
    return np.array_equal(a, b)


class ReferenceStore(dict):
    """A zarr store over fsspec's ReferenceFileSystem whose missing keys raise KeyError.

    fsspec 2022.11's ReferenceFileSystem.cat raises KeyError from inside a batch read, which
    zarr does not take for "chunk not written"; reading key by key restores zarr's fill
    semantics (the same happens with Python kerchunk's references)."""

    def __init__(self, fs):
        super().__init__()
        self.fs = fs

    def __getitem__(self, key):
        try:
            return self.fs.cat(key)
        except (KeyError, FileNotFoundError):
            raise KeyError(key)

    def __contains__(self, key):
        return key in self.fs.references

    def __iter__(self):
        return iter(self.fs.references)

    def __len__(self):
        return len(self.fs.references)

    def keys(self):
        return self.fs.references.keys()


def zarr_arrays(group, prefix=""):
    for name, item in group.items():
        path = f"{prefix}{name}"
        if isinstance(item, zarr.Array):
            yield path, item
        else:
            yield from zarr_arrays(item, path + "/")


def check_arrays(original, refs):
    """Every zarr array equals h5py's dataset; returns (checked, problems)."""
    fs = fsspec.filesystem("reference", fo=refs, remote_protocol="file")
    group = zarr.open_group(ReferenceStore(fs), mode="r")
    problems, checked = [], 0
    with h5py.File(original, "r") as f:
        for path, array in zarr_arrays(group):
            try:
                expected = f[path][()]
            except (OSError, ValueError) as e:  # e.g. a filter plugin h5py lacks
                expected = None
                note = str(e)
            ours = array[...]
            if (
                expected is None
                and array.ndim == 2
                and os.path.basename(original).startswith("h5ex_d_")
            ):
                # The HDF Group's filter examples write data[i][j] = i * j - j.
                i, j = np.indices(array.shape)
                expected = i * j - j
                print(f"  {path}: h5py lacks the filter plugin; compared with the example's pattern")
            if expected is None:
                print(f"  {path}: decoded by zarr; h5py cannot read it ({note[:60]})")
                continue
            if isinstance(expected, bytes) or (
                isinstance(expected, np.ndarray) and expected.dtype.kind == "O"
            ):
                pass
            elif array.fill_value is None and len(array.store) and not all_chunks(array):
                print(f"  {path}: unwritten chunks with fill_value null, not compared")
                continue
            if not same(ours, expected):
                problems.append(f"{original}: {path}: zarr values differ from h5py's")
            checked += 1
    return checked, problems


def all_chunks(array):
    keys = [k for k in array.store.keys() if k.startswith(array.path + "/")]
    chunk_keys = [k for k in keys if not k.rsplit("/", 1)[-1].startswith(".")]
    return len(chunk_keys) >= array.nchunks


def big_endian_records(refs):
    """Root arrays whose structured dtype has a non-native field, which xarray cannot open: its
    endianness decoding casts them to "V<itemsize>" and fails, even with decode_cf=False. zarr
    reads them (check_arrays compares them with h5py)."""
    fs = fsspec.filesystem("reference", fo=refs, remote_protocol="file")
    group = zarr.open_group(ReferenceStore(fs), mode="r")
    return [
        name
        for name, array in group.arrays()
        if array.dtype.fields is not None and not array.dtype.isnative
    ]


def open_references(refs, drop):
    """The references opened as users open them."""
    ds = xr.open_dataset(
        "reference://",
        engine="zarr",
        mask_and_scale=False,
        decode_times=False,
        drop_variables=drop,
        backend_kwargs={
            "consolidated": False,
            "storage_options": {"fo": refs, "remote_protocol": "file"},
        },
    )
    try:
        ds.load()
    except KeyError:
        # A chunk that was never written (see ReferenceStore): same data through a store that
        # reports it as missing.
        fs = fsspec.filesystem("reference", fo=refs, remote_protocol="file")
        ds = xr.open_zarr(
            ReferenceStore(fs),
            consolidated=False,
            mask_and_scale=False,
            decode_times=False,
            drop_variables=drop,
        )
    return ds


def check_xarray(original, refs):
    """The references open with xarray; its structured variables equal h5py's rows and, for
    netCDF-4 files, every variable equals xarray's netcdf4 reading."""
    drop = big_endian_records(refs)
    if drop:
        print(f"  xarray cannot open big-endian structured arrays {drop}: left out of its check")
    try:
        ds = open_references(refs, drop)
    except ValueError as e:
        # kerchunk names missing dimensions phony_dim_<index>, so HDF5 files whose unnamed
        # dimensions differ in size do not form an xarray Dataset (netCDF-4 variables have
        # named dimensions).
        if "conflicting sizes for dimension 'phony_dim_" in str(e):
            print(f"  not an xarray dataset (phony dimensions): {e}")
            return 0, []
        raise
    # Structured arrays (compound datasets) through xarray equal h5py's rows.
    problems, checked = [], 0
    with h5py.File(original, "r") as f:
        for name, variable in ds.variables.items():
            if variable.dtype.fields is None:
                continue
            if not same(variable.values, f[name][()]):
                problems.append(f"{original}: xarray's structured {name} differs from h5py's")
            checked += 1
    # Raw values on both sides: CF decoding picks float32 or float64 from the attributes' types,
    # which zarr and netCDF4 report differently, without any difference in the stored data.
    try:
        nc = xr.open_dataset(original, engine="netcdf4", mask_and_scale=False, decode_times=False)
        nc.load()
    except Exception as e:  # not netCDF-4, or a filter netCDF-C lacks
        print(f"  netCDF4 cannot read it: {str(e)[:60]}")
        return checked, problems
    for name in nc.variables:
        if name in drop:
            continue
        if name not in ds.variables:
            problems.append(f"{original}: xarray variable {name} missing from the references")
            continue
        if not same(ds[name].values, nc[name].values):
            problems.append(f"{original}: xarray variable {name} differs from netCDF4's")
        checked += 1
    return checked, problems


def main(argv):
    if len(argv) < 2 or len(argv) % 2:
        print(__doc__)
        return 2
    problems, total = [], 0
    for original, refs in zip(argv[0::2], argv[1::2]):
        n1, p1 = check_arrays(original, refs)
        n2, p2 = check_xarray(original, refs)
        print(
            f"{original}: {n1} arrays vs h5py, {n2} xarray variables vs netCDF4 or h5py, "
            f"{len(p1 + p2)} problems"
        )
        problems += p1 + p2
        total += n1 + n2
    for p in problems:
        print("PROBLEM:", p)
    print(f"{total - len(problems)} passed, {len(problems)} failed")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
