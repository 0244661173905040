# Every dependency comes from a Debian bookworm package; nothing is downloaded at build time.
find_package(HDF5 REQUIRED COMPONENTS C)
find_package(netCDF REQUIRED)
find_package(simdjson REQUIRED)
find_package(CLI11 REQUIRED)
find_package(fmt REQUIRED)
find_package(ZLIB REQUIRED)
find_package(zstd REQUIRED)
find_package(Threads REQUIRED)
find_package(PkgConfig REQUIRED)
pkg_check_modules(BLOSC REQUIRED IMPORTED_TARGET blosc)

# zstd's package config names its shared target differently across versions.
if(TARGET zstd::libzstd_shared)
  set(KERCHUNK_ZSTD_TARGET zstd::libzstd_shared)
else()
  set(KERCHUNK_ZSTD_TARGET zstd::libzstd_static)
endif()
