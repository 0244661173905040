#!/usr/bin/python3
"""Reads a Kerchunk reference file the way users do (fsspec ReferenceFileSystem + zarr v2 +
xarray) and compares every variable with what netCDF4 reads from the original files.

    read_back.py REFS.json ORIGINAL [ORIGINAL...] [--concat-dim DIM]
                 [--new-dim NAME [--per-member K] [--member-attr ATTR]] [--keep first|last]

One original: xr.open_dataset(original). Several: xr.open_mfdataset concatenated along DIM, with
variables lacking DIM taken from the first file (what `kerchunk combine` does). Both sides are
opened with decode_cf=False (raw stored values and every attribute) and compared, then both are
decoded with xr.decode_cf(decode_times=False) (masking and scaling) and compared again.
Compared: variable names, dimensions, dtypes (ignoring byte order), values (NaN equal to NaN),
variable and global attributes. Prints one line per difference and "OK <n> variables" at the
end; exit status 0 when equal, 1 when not, 77 when a Python module is missing.

With --new-dim (an ensemble combined along a dimension the files do not have), the originals
are taken K at a time (default 1), member after member in the order of NAME, and each member
ds.isel(NAME=i) of the references is compared with its own files as above; its global
attributes come from the first file, so they are compared for member 0 only. --member-attr
checks that NAME's values are each member's first file's global attribute ATTR.

With --keep, originals that overlap along DIM are concatenated and then de-duplicated along it,
keeping the first or last file's step (what --on-overlap earlier / later promise).
"""
import sys

try:
    import numpy as np
    import xarray as xr
    import fsspec  # noqa: F401  (the reference:// protocol)
    import zarr  # noqa: F401
    import netCDF4  # noqa: F401
except ImportError as e:  # the test skips
    print(f"SKIP: {e}")
    sys.exit(77)


def missing_keys_raise():
    """True when this fsspec's ReferenceFileSystem.cat() raises KeyError for a missing key even
    with on_error="omit" (fsspec before 2023.12, e.g. Debian bookworm's 2022.11: fsspec issues
    #915 and #1435). zarr reads several chunks with one cat() call, so with such an fsspec any
    selection touching a chunk that was never written fails instead of giving the fill value.
    Python kerchunk's references have the same missing keys (zarr's way to say "fill value")."""
    from fsspec.implementations.reference import ReferenceFileSystem

    fs = ReferenceFileSystem(fo={"a": "x"})
    try:
        fs.cat(["a", "missing"], on_error="omit")
        return False
    except KeyError:
        return True


def apply_missing_key_fix():
    """What fsspec 2023.12 does: cat() leaves missing keys out (or returns the error) unless
    on_error="raise"."""
    from fsspec.implementations.reference import ReferenceFileSystem

    original = ReferenceFileSystem.cat

    def cat(self, path, recursive=False, on_error="raise", **kwargs):
        if not isinstance(path, list) or on_error == "raise":
            return original(self, path, recursive=recursive, on_error=on_error, **kwargs)
        present = [p for p in path if self._strip_protocol(p) in self.references]
        out = original(self, present, recursive=recursive, on_error=on_error, **kwargs) if present else {}
        if on_error == "return":
            for p in path:
                if p not in present:
                    out[p] = FileNotFoundError(p)
        return out

    ReferenceFileSystem.cat = cat


def open_references(path, decode_cf=False):
    return xr.open_dataset(
        "reference://",
        engine="zarr",
        backend_kwargs={
            "consolidated": False,
            "storage_options": {"fo": path, "remote_protocol": "file"},
        },
        decode_cf=decode_cf,
        decode_times=False,
        mask_and_scale=decode_cf,
    )


KEEP = None  # --keep: "first" or "last" step of overlapping originals


def open_originals(paths, concat_dim, decode_cf, decode_times=False):
    kwargs = dict(decode_cf=decode_cf, decode_times=decode_times, mask_and_scale=decode_cf)
    if len(paths) == 1:
        return xr.open_dataset(paths[0], **kwargs)
    if KEEP:
        ds = xr.concat(
            [xr.open_dataset(p, **kwargs) for p in paths],
            dim=concat_dim,
            data_vars="minimal",
            coords="minimal",
            compat="override",
            join="override",
        )
        return ds.drop_duplicates(concat_dim, keep=KEEP)
    return xr.open_mfdataset(
        paths,
        combine="nested",
        concat_dim=concat_dim,
        data_vars="minimal",
        coords="minimal",
        compat="override",
        join="override",
        **kwargs,
    )


def is_nan(x):
    return isinstance(x, (float, np.floating)) and np.isnan(x)


def same_value(a, b):
    if isinstance(a, np.ndarray) or isinstance(b, np.ndarray):
        a, b = np.asarray(a), np.asarray(b)
        if a.shape != b.shape:
            return False
        if a.dtype.kind in "fc" and b.dtype.kind in "fc":
            return bool(np.array_equal(a, b, equal_nan=True))
        if a.dtype.kind == "O" or b.dtype.kind == "O":  # decoded strings; masked ones are NaN
            return all(x == y or (is_nan(x) and is_nan(y)) for x, y in zip(a.flat, b.flat))
        return bool(np.array_equal(a, b))
    if isinstance(a, float) and isinstance(b, float) and np.isnan(a) and np.isnan(b):
        return True
    if isinstance(a, (np.generic, float, int)) and isinstance(b, (np.generic, float, int)):
        return same_value(np.asarray(a), np.asarray(b))
    return a == b


def compare_attrs(where, ours, theirs, problems):
    for key in sorted(set(ours) | set(theirs)):
        if key not in ours:
            problems.append(f"{where}: attribute {key} missing")
        elif key not in theirs:
            problems.append(f"{where}: extra attribute {key}={ours[key]!r}")
        elif not same_value(ours[key], theirs[key]):
            problems.append(f"{where}: attribute {key} is {ours[key]!r}, expected {theirs[key]!r}")


def values_of(var):
    data = var.values
    if data.dtype.kind == "S":  # fixed-size bytes: compare the text, padding aside
        return data.astype(object)
    return data


def compare_variable(name, ours, theirs, problems):
    where = f"variable {name}"
    if ours.dims != theirs.dims:
        problems.append(f"{where}: dimensions {ours.dims}, expected {theirs.dims}")
        return
    if ours.dtype.newbyteorder("=") != theirs.dtype.newbyteorder("="):
        problems.append(f"{where}: dtype {ours.dtype}, expected {theirs.dtype}")
    a, b = values_of(ours), values_of(theirs)
    if a.shape != b.shape:
        problems.append(f"{where}: shape {a.shape}, expected {b.shape}")
    elif not same_value(a, b):
        differ = np.argwhere(~((a == b) | ((a != a) & (b != b)))) if a.dtype.kind in "fciubMm" else []
        first = tuple(differ[0]) if len(differ) else "?"
        problems.append(
            f"{where}: values differ ({len(differ)} elements, first at {first}: "
            f"{a[first] if len(differ) else '?'} vs {b[first] if len(differ) else '?'})"
        )
    compare_attrs(where, ours.attrs, theirs.attrs, problems)


def default_fill_allowance(ours, theirs, notes):
    """netCDF-4 variables without a _FillValue attribute still have a fill value, netCDF's
    default for their type, which HDF5 stores and the references carry as zarr's fill_value
    (as Python kerchunk does). xarray's zarr backend turns every fill_value into a _FillValue
    attribute, so such a variable gains one; netCDF4-python masks those default fill values by
    itself too, xarray's netCDF4 backend does not. Give the original the same attribute, so
    that both sides are decoded alike, and say so."""
    for name, var in ours.variables.items():
        if name not in theirs.variables or "_FillValue" not in var.attrs:
            continue
        original = theirs[name].variable
        if "_FillValue" in original.attrs:
            continue
        default = netCDF4.default_fillvals.get(original.dtype.str[1:])
        if default is not None and same_value(np.asarray(var.attrs["_FillValue"]),
                                              np.asarray(default, dtype=original.dtype)):
            original.attrs["_FillValue"] = var.attrs["_FillValue"]
            notes.append(f"note: {name}: _FillValue {default} is netCDF's default fill value "
                         "(the original has no attribute)")


def compare_datasets(label, ours, theirs):
    problems = []
    names_ours, names_theirs = set(ours.variables), set(theirs.variables)
    for name in sorted(names_theirs - names_ours):
        problems.append(f"variable {name} missing")
    for name in sorted(names_ours - names_theirs):
        problems.append(f"extra variable {name}")
    for name in sorted(names_ours & names_theirs):
        compare_variable(name, ours[name].variable, theirs[name].variable, problems)
    compare_attrs("global", ours.attrs, theirs.attrs, problems)
    return [f"{label}: {p}" for p in problems], len(names_ours & names_theirs)


def time_variables(ds, concat_dim):
    """Variables along the concat dimension whose numbers mean times: the coordinate and the
    variables xarray decodes with its units (CF bounds such as time_bnds)."""
    names = set()
    for name, var in ds.variables.items():
        if concat_dim in var.dims and ("units" in var.attrs and " since " in str(var.attrs["units"])):
            names.add(name)
    coord = ds.variables.get(concat_dim)
    if coord is not None and "bounds" in coord.attrs:
        names.add(coord.attrs["bounds"])
    return names


def compare(refs, originals, concat_dim, select=None):
    """Raw values first, then both sides decoded by xarray's CF decoder (masking, scaling).

    Files of a series may count time in different units ("days since 1850" in one, "days since
    1860" in the next). The combined coordinate is converted to the first file's units, while
    open_mfdataset concatenates the raw numbers, so for several files the time variables are
    compared as decoded dates instead of numbers."""
    notes = []
    ours = open_references(refs, decode_cf=False)
    theirs = open_originals(originals, concat_dim, decode_cf=False)
    if select is not None:
        ours = select(ours, theirs)
    default_fill_allowance(ours, theirs, notes)
    as_dates = time_variables(theirs, concat_dim) if len(originals) > 1 else set()
    raw_ours, raw_theirs = ours.drop_vars(as_dates), theirs.drop_vars(as_dates)
    problems, count = compare_datasets("raw", raw_ours, raw_theirs)
    decoded, _ = compare_datasets(
        "decoded",
        xr.decode_cf(raw_ours, decode_times=False),
        xr.decode_cf(raw_theirs, decode_times=False),
    )
    problems += decoded
    if as_dates:
        dates_ours = xr.decode_cf(ours[sorted(as_dates)], decode_times=True)
        dates_theirs = open_originals(originals, concat_dim, True, decode_times=True)[
            sorted(as_dates)
        ]
        for name in sorted(as_dates):
            found = []
            compare_variable(name, dates_ours[name].variable, dates_theirs[name].variable, found)
            problems += [f"dates: {p}" for p in found if "attribute" not in p]
        notes.append(f"note: compared {', '.join(sorted(as_dates))} as dates")
        count += len(as_dates)
    return notes, problems, count


def compare_members(refs, originals, concat_dim, new_dim, per_member, member_attr):
    """Each member of the combined references against its own files."""
    ours = open_references(refs, decode_cf=False)
    groups = [originals[i : i + per_member] for i in range(0, len(originals), per_member)]
    if ours.sizes.get(new_dim) != len(groups):
        return [], [f"dimension {new_dim}: {ours.sizes.get(new_dim)} members, expected {len(groups)}"], 0
    notes, problems, count = [], [], 0
    for i, files in enumerate(groups):
        if member_attr:
            expected = netCDF4.Dataset(files[0]).getncattr(member_attr)
            if ours[new_dim].values[i] != expected:
                problems.append(f"{new_dim}[{i}] is {ours[new_dim].values[i]!r}, expected {expected!r}")

        def select(ds, theirs, i=i):
            member = ds.isel({new_dim: i}, drop=True)
            if i > 0:
                member.attrs = dict(theirs.attrs)  # global attributes are the first file's
            return member

        n, p, c = compare(refs, files, concat_dim, select)
        notes += n
        problems += [f"member {i}: {x}" for x in p]
        count += c
    notes.append(f"note: compared {len(groups)} members of {new_dim}")
    return notes, problems, count


def take_option(argv, name, default=None):
    if name not in argv:
        return argv, default
    i = argv.index(name)
    return argv[:i] + argv[i + 2 :], argv[i + 1]


def main(argv):
    argv, concat_dim = take_option(argv, "--concat-dim", "time")
    argv, new_dim = take_option(argv, "--new-dim")
    argv, per_member = take_option(argv, "--per-member", "1")
    argv, member_attr = take_option(argv, "--member-attr")
    global KEEP
    argv, KEEP = take_option(argv, "--keep")
    if len(argv) < 3:
        print(__doc__)
        return 2
    refs, originals = argv[1], argv[2:]
    if missing_keys_raise():
        print(f"note: fsspec {fsspec.__version__} raises KeyError for missing chunk keys; "
              "applying the fix of fsspec 2023.12 (issue #1435) for this run")
        apply_missing_key_fix()
    if new_dim:
        notes, problems, count = compare_members(
            refs, originals, concat_dim, new_dim, int(per_member), member_attr
        )
    else:
        notes, problems, count = compare(refs, originals, concat_dim)
    for line in notes + problems:
        print(line)
    if problems:
        return 1
    print(f"OK {count} variables")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
