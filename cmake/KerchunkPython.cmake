# The Python package kerchunk_packed (python/): a pybind11 module over the library. Built by
# default when Debian's pybind11-dev and python3-dev are installed (.ci/setup installs them),
# except in sanitizer and fuzz builds, where a module cannot be loaded into an uninstrumented
# interpreter (its C++ core is still built and tested there, see tests/python).
#
# The interpreter is Debian's /usr/bin/python3 unless Python_EXECUTABLE says otherwise: the
# package is for its python3-xarray/-zarr/-fsspec, and a python3 earlier on PATH (pyenv) would
# build a module that Debian's interpreter cannot import.
if(NOT DEFINED Python_EXECUTABLE AND EXISTS /usr/bin/python3)
  set(Python_EXECUTABLE /usr/bin/python3 CACHE FILEPATH "Python interpreter of kerchunk_packed")
endif()
set(kerchunk_python_default OFF)
if(NOT KERCHUNK_SANITIZE AND NOT KERCHUNK_FUZZ)
  find_package(Python 3.9 QUIET COMPONENTS Interpreter Development.Module)
  if(Python_FOUND)
    set(PYBIND11_FINDPYTHON ON)
    find_package(pybind11 2.6 CONFIG QUIET)
    if(pybind11_FOUND)
      set(kerchunk_python_default ON)
    endif()
  endif()
endif()
option(KERCHUNK_PYTHON "Build the Python package kerchunk_packed (needs pybind11-dev, python3-dev)"
       ${kerchunk_python_default})
if(KERCHUNK_PYTHON)
  find_package(Python 3.9 REQUIRED COMPONENTS Interpreter Development.Module)
  set(PYBIND11_FINDPYTHON ON)
  find_package(pybind11 2.6 CONFIG REQUIRED)
  # Relative to the install prefix: a virtual environment as prefix installs into its own
  # site-packages (README, "Python").
  set(KERCHUNK_PYTHON_SITE_DIR "lib/python${Python_VERSION_MAJOR}.${Python_VERSION_MINOR}/site-packages"
      CACHE STRING "Where `cmake --install --component python` puts kerchunk_packed, under the prefix")
endif()
