"""Bad input arrives as the right Python exception with the C++ message naming what and where,
never a crash: a missing index, a truncated or corrupt packed file, a newer format version, a
reference past the end of its file, a missing data file, a malformed rewrite rule."""
import os
import unittest

import xarray as xr

import kerchunk_packed
from kp_testing import TempDirTestCase, kerchunk, scan_and_pack, write_series


class BadInputTest(TempDirTestCase):
    def setUp(self):
        super().setUp()
        self.files = write_series(self.dir, files=2)
        self.plain, self.packed = scan_and_pack(self.files, self.dir, "time")
        self.packed_bytes = self.packed.read_bytes()  # the compact form (zstd container)
        # The JSON form, whose text the tests below edit.
        self.readable = self.dir / "refs.readable.packed.json"
        kerchunk("pack", "-q", "--readable", self.plain, "-o", self.readable)
        self.packed_text = self.readable.read_bytes()

    def assert_raises_naming(self, exception, *names, call):
        with self.assertRaises(exception) as caught:
            call()
        for name in names:
            self.assertIn(str(name), str(caught.exception))
        return caught.exception

    def test_missing_index(self):
        missing = self.dir / "absent.packed.json"
        self.assert_raises_naming(FileNotFoundError, missing,
                                  call=lambda: kerchunk_packed.open_store(missing))
        self.assert_raises_naming(
            FileNotFoundError, missing,
            call=lambda: xr.open_dataset(missing, engine="kerchunk_packed"))

    def test_truncated_packed_file_at_every_point(self):
        # Every 61st byte (every 7th of the shorter compact form), of both forms: each prefix is
        # an error naming the file, never a crash.
        for whole, step in ((self.packed_text, 61), (self.packed_bytes, 7)):
            for size in range(1, len(whole), step):
                self.packed.write_bytes(whole[:size])
                with self.subTest(size=size, compact=whole is self.packed_bytes):
                    self.assert_raises_naming(ValueError, self.packed,
                                              call=lambda: kerchunk_packed.open_store(self.packed))

    def test_newer_format_version(self):
        self.packed.write_bytes(self.packed_text.replace(b'"format_version":1', b'"format_version":7'))
        self.assert_raises_naming(ValueError, self.packed, "packed format version 7 is newer",
                                  call=lambda: kerchunk_packed.open_store(self.packed))

    def test_corrupt_packed_column(self):
        # The generator's presence runs no longer add up to its reference count.
        text = self.packed_text
        at = text.index(b'"references":') + len(b'"references":')
        end = at + next(i for i, c in enumerate(text[at:]) if not chr(c).isdigit())
        self.packed.write_bytes(text[:at] + str(int(text[at:end]) + 1).encode() + text[end:])
        self.assert_raises_naming(ValueError, self.packed, "generator 0",
                                  call=lambda: kerchunk_packed.open_store(self.packed))

    def test_not_an_index(self):
        self.plain.write_bytes(b"\x89HDF\r\n\x1a\n not json")
        self.assert_raises_naming(ValueError, self.plain,
                                  call=lambda: kerchunk_packed.open_store(self.plain))

    def test_reference_past_the_end_of_its_file(self):
        os.truncate(self.files[1], 4096)
        for index in (self.packed, self.plain):
            with xr.open_dataset(index, engine="kerchunk_packed") as ds:
                error = self.assert_raises_naming(ValueError, "are past its end", self.files[1],
                                                  call=lambda: ds["tas"].values)
                self.assertRegex(str(error), r"key tas/[23]\.\d\.\d")

    def test_missing_data_file(self):
        os.remove(self.files[0])
        store = kerchunk_packed.open_store(self.plain)
        self.assert_raises_naming(FileNotFoundError, "key tas/0.0.0", self.files[0],
                                  call=lambda: store["tas/0.0.0"])

    def test_malformed_rewrite_rule(self):
        self.assert_raises_naming(ValueError, "expected FROM=TO",
                                  call=lambda: kerchunk_packed.open_store(self.packed,
                                                                          rewrite=["no-equals"]))
        self.assert_raises_naming(ValueError, "FROM must not be empty",
                                  call=lambda: kerchunk_packed.open_store(self.packed,
                                                                          rewrite={"": "/x"}))


if __name__ == "__main__":
    unittest.main()
