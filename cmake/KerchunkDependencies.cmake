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

# libhdf5, netCDF-C, libcurl and libcrypto are loaded at run time, the first time a run needs
# them (src/util/shared_library.h says why), not linked: the library compiles against their
# headers and is told the file to load, the SONAME of the library found here (e.g.
# libhdf5_serial.so.103), so that it gets the release its headers describe.
function(kerchunk_library_file out_var target)
  set(location "")
  foreach(property IMPORTED_LOCATION IMPORTED_LOCATION_RELEASE IMPORTED_LOCATION_NONE
                   IMPORTED_LOCATION_RELWITHDEBINFO IMPORTED_LOCATION_DEBUG)
    get_target_property(location ${target} ${property})
    if(location)
      break()
    endif()
  endforeach()
  if(NOT location)
    get_target_property(configs ${target} IMPORTED_CONFIGURATIONS)
    foreach(config IN LISTS configs)
      get_target_property(location ${target} IMPORTED_LOCATION_${config})
      if(location)
        break()
      endif()
    endforeach()
  endif()
  if(NOT location)
    message(FATAL_ERROR "no shared library file for ${target}: it cannot be loaded at run time")
  endif()
  get_filename_component(real "${location}" REALPATH)
  set(file "${real}")
  if(CMAKE_OBJDUMP)
    execute_process(COMMAND "${CMAKE_OBJDUMP}" -p "${real}" OUTPUT_VARIABLE dump
                    RESULT_VARIABLE status ERROR_QUIET)
    if(status EQUAL 0 AND dump MATCHES "SONAME +([^ \n]+)")
      set(file "${CMAKE_MATCH_1}")
    endif()
  endif()
  set(${out_var} "${file}" PARENT_SCOPE)
endfunction()

# The headers (and definitions) of a library used through its loaded table, without linking it.
function(kerchunk_use_headers_of target library)
  target_include_directories(${target} SYSTEM PRIVATE
    $<TARGET_PROPERTY:${library},INTERFACE_INCLUDE_DIRECTORIES>)
  target_compile_definitions(${target} PRIVATE
    $<TARGET_PROPERTY:${library},INTERFACE_COMPILE_DEFINITIONS>)
endfunction()

kerchunk_library_file(KERCHUNK_HDF5_LIBRARY_FILE hdf5::hdf5)
kerchunk_library_file(KERCHUNK_NETCDF_LIBRARY_FILE netCDF::netcdf)
kerchunk_library_file(KERCHUNK_CURL_LIBRARY_FILE CURL::libcurl)
kerchunk_library_file(KERCHUNK_CRYPTO_LIBRARY_FILE OpenSSL::Crypto)
message(STATUS "Loaded when needed: ${KERCHUNK_HDF5_LIBRARY_FILE} ${KERCHUNK_NETCDF_LIBRARY_FILE} "
               "${KERCHUNK_CURL_LIBRARY_FILE} ${KERCHUNK_CRYPTO_LIBRARY_FILE}")
