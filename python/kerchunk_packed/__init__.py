"""Open packed and plain Kerchunk reference indexes with zarr and xarray, without unpacking.

    import kerchunk_packed, xarray as xr
    ds = xr.open_dataset("era5.packed.json", engine="kerchunk_packed")   # or a plain .json
    store = kerchunk_packed.open_store("era5.packed.json")              # a zarr v2 store

The index is read by the kerchunk C++ library (packed files through PackedIndex::Resolve, plain
Kerchunk JSON by its streaming reader), never as a Python dict of every reference.
"""
from ._store import PackedStore, open_store

__version__ = "@PROJECT_VERSION@"
__all__ = ["PackedStore", "open_store", "__version__"]
