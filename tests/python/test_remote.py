"""References to non-local URLs are read through fsspec: the referenced files placed in
fsspec's memory:// filesystem (a rewrite rule points the index there), and the index itself
fetched from memory://, give the values of the local files."""
import unittest
import uuid

import fsspec
import numpy as np
import xarray as xr

import kerchunk_packed
from kp_testing import TempDirTestCase, scan_and_pack, write_series


class RemoteTest(TempDirTestCase):
    def setUp(self):
        super().setUp()
        self.files = write_series(self.dir, files=2)
        self.plain, self.packed = scan_and_pack(self.files, self.dir, "time")
        self.memory = fsspec.filesystem("memory")
        self.root = f"memory://kerchunk_packed_test_{uuid.uuid4().hex}"
        for f in self.files:
            with open(f, "rb") as local:
                self.memory.pipe(f"{self.root}/{f.rsplit('/', 1)[1]}", local.read())
        self.rule = {str(self.dir): self.root}

    def tearDown(self):
        self.memory.rm(self.root, recursive=True)
        super().tearDown()

    def local(self, index):
        with xr.open_dataset(index, engine="kerchunk_packed", decode_cf=False) as ds:
            return ds.load()

    def test_referenced_bytes_through_fsspec(self):
        for index in (self.packed, self.plain):
            expected = self.local(index)
            for f in self.files:  # the local copies are gone: only memory:// can answer
                (self.dir / f.rsplit("/", 1)[1]).rename(self.dir / ("moved_" + f.rsplit("/", 1)[1]))
            try:
                with xr.open_dataset(index, engine="kerchunk_packed", decode_cf=False,
                                     rewrite=self.rule) as ds:
                    for name in expected.variables:
                        np.testing.assert_array_equal(ds[name].values, expected[name].values,
                                                      err_msg=f"{index} {name}")
            finally:
                for f in self.files:
                    (self.dir / ("moved_" + f.rsplit("/", 1)[1])).rename(f)

    def test_unwritten_chunks_stay_absent_remotely(self):
        store = kerchunk_packed.open_store(self.packed, rewrite=self.rule)
        got = store.getitems(["sparse/0.0.0", "sparse/1.0.0", "tas/0.0.0"])
        self.assertEqual(sorted(got), ["sparse/1.0.0", "tas/0.0.0"])

    def test_index_fetched_from_a_url(self):
        self.memory.pipe(f"{self.root}/refs.packed.json", self.packed.read_bytes())
        expected = self.local(self.packed)
        with xr.open_dataset(f"{self.root}/refs.packed.json", engine="kerchunk_packed",
                             decode_cf=False) as ds:
            np.testing.assert_array_equal(ds["tas"].values, expected["tas"].values)

    def test_remote_range_past_the_end_names_key_and_url(self):
        name = self.files[0].rsplit("/", 1)[1]
        self.memory.pipe(f"{self.root}/{name}", b"short")
        store = kerchunk_packed.open_store(self.packed, rewrite=self.rule)
        with self.assertRaises(ValueError) as caught:
            store["tas/0.0.0"]
        self.assertIn("key tas/0.0.0", str(caught.exception))
        self.assertIn(f"{self.root}/{name}", str(caught.exception))

    def test_missing_remote_file_is_file_not_found(self):
        name = self.files[1].rsplit("/", 1)[1]
        self.memory.rm(f"{self.root}/{name}")
        store = kerchunk_packed.open_store(self.packed, rewrite=self.rule)
        with self.assertRaises(FileNotFoundError) as caught:
            store.getitems(["tas/0.0.0", "tas/3.1.2"])
        self.assertIn("key tas/3.1.2", str(caught.exception))


if __name__ == "__main__":
    unittest.main()
