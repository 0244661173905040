# Project options, all prefixed KERCHUNK_ (see fmt's and simdjson's developer options).
option(KERCHUNK_BUILD_TESTS "Build the GoogleTest suite" ${PROJECT_IS_TOP_LEVEL})
option(KERCHUNK_WERROR "Treat compiler warnings as errors" OFF)
option(KERCHUNK_SANITIZE "Build with AddressSanitizer and UndefinedBehaviorSanitizer" OFF)
option(KERCHUNK_FUZZ "Build libFuzzer targets (needs clang)" OFF)
option(KERCHUNK_NATIVE "Optimise for the build machine (-march=native)" OFF)

# Warnings and sanitizers apply to the project's own targets through this interface library.
add_library(kerchunk_build_flags INTERFACE)
target_compile_options(kerchunk_build_flags INTERFACE
  $<$<CXX_COMPILER_ID:GNU,Clang>:-Wall -Wextra -Wpedantic>
  $<$<CXX_COMPILER_ID:GNU>:-Wshadow=local>  # clang (the fuzz build) has no -Wshadow=local
  $<$<CXX_COMPILER_ID:GNU,Clang>:-Wno-missing-field-initializers>)
if(KERCHUNK_WERROR)
  target_compile_options(kerchunk_build_flags INTERFACE -Werror)
endif()
if(KERCHUNK_NATIVE)
  target_compile_options(kerchunk_build_flags INTERFACE -march=native)
endif()
if(KERCHUNK_SANITIZE)
  target_compile_options(kerchunk_build_flags INTERFACE
    -fsanitize=address,undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer)
  target_link_options(kerchunk_build_flags INTERFACE -fsanitize=address,undefined)
endif()
if(KERCHUNK_FUZZ)
  # Coverage instrumentation for the library itself, not only the fuzz harness: without it
  # libFuzzer sees no new paths inside the parsers and mutates blindly. AddressSanitizer and
  # UBSan everywhere, so a bad read inside the library stops the run where it happens.
  target_compile_options(kerchunk_build_flags INTERFACE
    -fsanitize=fuzzer-no-link,address,undefined -fno-omit-frame-pointer)
  target_link_options(kerchunk_build_flags INTERFACE -fsanitize=address,undefined)
endif()
