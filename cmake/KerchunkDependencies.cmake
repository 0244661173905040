# Every dependency comes from a Debian bookworm package; nothing is downloaded at build time.
find_package(HDF5 REQUIRED COMPONENTS C)
find_package(netCDF REQUIRED)
find_package(simdjson REQUIRED)
find_package(CLI11 REQUIRED)
find_package(fmt REQUIRED)
find_package(ZLIB REQUIRED)
find_package(zstd REQUIRED)
find_package(Threads REQUIRED)
# Remote files (src/io): HTTP(S) with libcurl, SHA-256/HMAC for S3 signatures from OpenSSL.
find_package(CURL REQUIRED)
find_package(OpenSSL REQUIRED COMPONENTS Crypto)
find_package(PkgConfig REQUIRED)
pkg_check_modules(BLOSC REQUIRED IMPORTED_TARGET blosc)
# xxHash (XXH3 for the reference-set checksum) is used header-only (XXH_INLINE_ALL): nothing to
# link, so the installed package does not depend on it.
find_path(KERCHUNK_XXHASH_INCLUDE_DIR xxhash.h REQUIRED DOC "xxHash >= 0.8 (Debian: libxxhash-dev)")

# zstd's package config names its shared target differently across versions.
if(TARGET zstd::libzstd_shared)
  set(KERCHUNK_ZSTD_TARGET zstd::libzstd_shared)
else()
  set(KERCHUNK_ZSTD_TARGET zstd::libzstd_static)
endif()
