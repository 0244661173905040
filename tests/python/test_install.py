"""The documented install (README, "Python"): into a fresh virtual environment that sees
Debian's packages, `cmake --install <build> --component python --prefix <venv>`, then the
environment's python opens an index through the xarray entry point from an unrelated folder
with no PYTHONPATH, and `pip uninstall` removes the package again. Offline throughout."""
import os
import subprocess
import sys
import unittest

from kp_testing import TempDirTestCase, scan_and_pack, write_series

CMAKE = os.environ.get("CMAKE_COMMAND", "cmake")
BUILD_DIR = os.environ.get("KERCHUNK_BUILD_DIR")

CHECK = """
import sys, importlib.metadata, netCDF4, numpy as np, xarray as xr
import kerchunk_packed
assert kerchunk_packed.__file__.startswith(sys.prefix), kerchunk_packed.__file__
engines = {e.name: e.value for e in importlib.metadata.entry_points(group="xarray.backends")}
assert engines.get("kerchunk_packed") == \
    "kerchunk_packed._backend:KerchunkPackedBackendEntrypoint", engines
index, original = sys.argv[1], sys.argv[2]
with xr.open_dataset(index, engine="kerchunk_packed", decode_cf=False) as ds, \\
        netCDF4.Dataset(original) as nc:
    nc.set_auto_mask(False)
    np.testing.assert_array_equal(ds["tas"].values, nc["tas"][:])
print("opened", kerchunk_packed.__version__)
"""


def run(*args, **kwargs):
    result = subprocess.run(list(map(str, args)), capture_output=True, text=True, **kwargs)
    if result.returncode != 0:
        raise AssertionError(f"{' '.join(map(str, args))}: exit {result.returncode}\n"
                             f"{result.stdout}\n{result.stderr}")
    return result


class InstallTest(TempDirTestCase):
    def test_install_into_a_fresh_venv(self):
        if not BUILD_DIR:
            self.skipTest("KERCHUNK_BUILD_DIR not set (ctest sets it)")
        files = write_series(self.dir, files=1, sparse=False)
        _, packed = scan_and_pack(files, self.dir)
        venv = self.dir / "venv"
        run("/usr/bin/python3", "-m", "venv", "--system-site-packages", venv)
        run(CMAKE, "--install", BUILD_DIR, "--component", "python", "--prefix", venv)
        python = venv / "bin" / "python"
        env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
        elsewhere = self.dir / "elsewhere"
        elsewhere.mkdir()
        opened = run(python, "-c", CHECK, packed, files[0], env=env, cwd=elsewhere)
        self.assertIn("opened", opened.stdout)
        # Not visible to the system python: it went into the environment only.
        system = subprocess.run(["/usr/bin/python3", "-c", "import kerchunk_packed"], env=env,
                                cwd=elsewhere, capture_output=True)
        self.assertNotEqual(system.returncode, 0)
        run(python, "-m", "pip", "uninstall", "-y", "kerchunk_packed", env=env, cwd=elsewhere)
        gone = subprocess.run([str(python), "-c", "import kerchunk_packed"], env=env,
                              cwd=elsewhere, capture_output=True)
        self.assertNotEqual(gone.returncode, 0)
        self.assertEqual(list((venv / "lib").glob("python3*/site-packages/kerchunk_packed*")), [])


if __name__ == "__main__":
    unittest.main()
