"""kerchunk_packed.open_store and the engine on a generated series: values equal to netCDF4's,
unwritten chunks as fill values (KeyError from the store), one getitems call per selection,
listing without chunk keys, consolidated metadata, rewrite rules, chunks={} and
open_mfdataset over several indexes, pickling."""
import pickle
import shutil
import unittest

import netCDF4
import numpy as np
import xarray as xr
import zarr

import kerchunk_packed
from kp_testing import TempDirTestCase, scan_and_pack, write_series


def netcdf_values(paths, name):
    """The raw values of a variable of the files, concatenated (netCDF4, no masking)."""
    out = []
    for path in paths:
        with netCDF4.Dataset(path) as ds:
            ds.set_auto_mask(False)
            out.append(ds[name][:])
    return np.concatenate(out)


class StoreTest(TempDirTestCase):
    def setUp(self):
        super().setUp()
        self.files = write_series(self.dir, files=3)
        self.plain, self.packed = scan_and_pack(self.files, self.dir, "time")

    def test_values_equal_netcdf4_through_both_indexes(self):
        for index in (self.packed, self.plain):
            with xr.open_dataset(index, engine="kerchunk_packed", decode_cf=False) as ds:
                for name in ("tas", "sparse", "time"):
                    expected = netcdf_values(self.files, name)
                    np.testing.assert_array_equal(ds[name].values, expected, err_msg=f"{index} {name}")

    def test_the_packed_index_is_packed(self):
        self.assertTrue(kerchunk_packed.open_store(self.packed).packed)
        self.assertFalse(kerchunk_packed.open_store(self.plain).packed)

    def test_unwritten_chunk_is_a_key_error_and_reads_as_fill_value(self):
        store = kerchunk_packed.open_store(self.packed)
        self.assertEqual(len(store["sparse/1.0.0"]), 4 * 4 * 2)
        with self.assertRaises(KeyError):
            store["sparse/0.0.0"]
        self.assertNotIn("sparse/0.0.0", store)
        self.assertIn("sparse/1.0.0", store)
        array = zarr.open_consolidated(store, mode="r")["sparse"]
        np.testing.assert_array_equal(array[2], np.full((8, 12), -7, dtype="i2"))
        np.testing.assert_array_equal(array[3, :4, :4], np.full((4, 4), 2, dtype="i2"))
        self.assertEqual(array[3, 4, 4], -7)

    def test_a_selection_is_one_getitems_call(self):
        store = kerchunk_packed.open_store(self.packed)
        calls = []
        original = store.getitems

        def counting(keys, **kwargs):
            calls.append(list(keys))
            return original(keys, **kwargs)

        store.getitems = counting
        array = zarr.open_consolidated(store, mode="r")["tas"]
        calls.clear()
        values = array[:, :, :]
        self.assertEqual(len(calls), 1)
        self.assertEqual(len(calls[0]), 6 * 2 * 3)  # every chunk of the (6, 8, 12) array
        self.assertEqual(values.shape, (6, 8, 12))

    def test_listing_has_no_chunk_keys(self):
        store = kerchunk_packed.open_store(self.packed)
        keys = list(store)
        self.assertIn(".zgroup", keys)
        self.assertIn("tas/.zarray", keys)
        self.assertIn(".zmetadata", keys)
        self.assertFalse([k for k in keys if k.split("/")[-1][0].isdigit()], keys)
        self.assertEqual(len(store), len(keys))
        self.assertEqual(store.listdir(""), sorted({k.split("/")[0] for k in keys}))
        self.assertEqual(store.listdir("tas"), [".zarray", ".zattrs"])
        group = zarr.open_group(store, mode="r")
        self.assertEqual(sorted(group.array_keys()), ["sparse", "tas", "time"])

    def test_consolidated_metadata_is_every_metadata_key(self):
        store = kerchunk_packed.open_store(self.plain)
        import json

        metadata = json.loads(store[".zmetadata"])["metadata"]
        self.assertEqual(metadata["tas/.zarray"], json.loads(store["tas/.zarray"]))
        self.assertEqual(set(metadata), {k for k in store if k != ".zmetadata"})

    def test_store_is_read_only(self):
        store = kerchunk_packed.open_store(self.packed)
        with self.assertRaises(zarr.errors.ReadOnlyError):
            store["x"] = b"1"
        with self.assertRaises(zarr.errors.ReadOnlyError):
            del store[".zgroup"]

    def test_rewrite_rules_read_another_copy(self):
        copy = self.dir / "copy"
        copy.mkdir()
        for f in self.files:
            shutil.move(f, copy)
        expected = xr.open_mfdataset(sorted(str(p) for p in copy.iterdir()), combine="nested",
                                     concat_dim="time", data_vars="minimal", coords="minimal",
                                     compat="override")["tas"].values
        for rewrite in ({str(self.dir): str(copy)}, [f"{self.dir}={copy}"],
                        [(str(self.dir), f"file://{copy}")]):
            with xr.open_dataset(self.packed, engine="kerchunk_packed", rewrite=rewrite) as ds:
                np.testing.assert_array_equal(ds["tas"].values, expected, err_msg=str(rewrite))
        with self.assertRaises(FileNotFoundError):  # without the rule: the moved files
            with xr.open_dataset(self.packed, engine="kerchunk_packed") as ds:
                ds["tas"].values

    def test_chunks_give_lazy_dask_arrays(self):
        import dask.array

        with xr.open_dataset(self.packed, engine="kerchunk_packed", chunks={}) as ds:
            self.assertIsInstance(ds["tas"].data, dask.array.Array)
            self.assertEqual(ds["tas"].data.chunksize, (1, 4, 4))
            eager = xr.open_dataset(self.packed, engine="kerchunk_packed")["tas"].values
            np.testing.assert_array_equal(ds["tas"].values, eager)

    def test_open_mfdataset_over_several_indexes(self):
        indexes = []
        for i, f in enumerate(self.files):
            folder = self.dir / f"single{i}"
            folder.mkdir()
            indexes.append(str(scan_and_pack([f], folder)[1]))
        with xr.open_mfdataset(indexes, engine="kerchunk_packed", combine="nested",
                               concat_dim="time") as ds, \
                xr.open_dataset(self.packed, engine="kerchunk_packed") as whole:
            np.testing.assert_array_equal(ds["tas"].values, whole["tas"].values)
            np.testing.assert_array_equal(ds["time"].values, whole["time"].values)

    def test_a_packed_json_is_recognised_without_engine(self):
        with xr.open_dataset(self.packed) as ds:
            self.assertIn("tas", ds)

    def test_pickled_store_reopens(self):
        store = pickle.loads(pickle.dumps(kerchunk_packed.open_store(self.packed)))
        self.assertEqual(store["tas/0.0.0"], kerchunk_packed.open_store(self.plain)["tas/0.0.0"])


if __name__ == "__main__":
    unittest.main()
