"""`kerchunk bench --xarray-open` on a small generated series: the three routes run, read the
same selection (the bench's result check), and report their figures; a routed import failure
is a clear error."""
import json
import os
import subprocess
import unittest

from kp_testing import KERCHUNK, TempDirTestCase

BUILD_DIR = os.environ.get("KERCHUNK_BUILD_DIR")


class BenchXarrayOpenTest(TempDirTestCase):
    def bench(self, *args):
        return subprocess.run([KERCHUNK, "bench", "--synthetic", "3x20", "--no-compressors",
                               "--lookups", "100", "-q", *args], capture_output=True, text=True)

    def test_three_routes_with_figures(self):
        if not BUILD_DIR:
            self.skipTest("KERCHUNK_BUILD_DIR not set (ctest sets it)")
        run = self.bench("--xarray-open", os.path.join(BUILD_DIR, "python"), "--format", "json")
        self.assertEqual(run.returncode, 0, run.stderr)
        report = json.loads(run.stdout)
        x = report["sets"][0]["xarray_open"]
        self.assertRegex(x["selection"], r"^\w+\[0, 0:\d+, 0:\d+\]$")
        self.assertEqual([r["route"] for r in x["runs"]],
                         ["fsspec + zarr (JSON)", "kerchunk_packed (packed)",
                          "kerchunk_packed (JSON)"])
        for r in x["runs"]:
            self.assertGreater(r["open_seconds"], 0)
            self.assertGreater(r["peak_rss_bytes"], r["start_rss_bytes"] // 2)

    def test_missing_package_is_a_clear_error(self):
        run = self.bench("--xarray-open", str(self.dir / "nowhere"))
        env_has_it = run.returncode == 0  # an installed kerchunk_packed makes this pass
        if env_has_it:
            self.skipTest("kerchunk_packed is installed for this interpreter")
        self.assertEqual(run.returncode, 2, run.stderr)
        self.assertIn("cannot import xarray, zarr, fsspec and kerchunk_packed", run.stderr)

    def test_refs_only_sets_cannot_be_read(self):
        run = subprocess.run([KERCHUNK, "bench", "--synthetic", "3x20", "--refs-only",
                              "--xarray-open"], capture_output=True, text=True)
        self.assertEqual(run.returncode, 2)
        self.assertIn("drop --refs-only", run.stderr)


if __name__ == "__main__":
    unittest.main()
