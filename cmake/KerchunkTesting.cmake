# add_kerchunk_test(<name> SOURCES <files...> LABELS <labels...> [LIBS <libs...>] [TIMEOUT s])
# One GoogleTest executable; each TEST becomes a ctest test carrying the labels
# (unit, corpus, client, fuzz) so `ctest -L unit` runs a fast subset. LIBS names the library
# components it needs (e.g. kerchunk::hdf5 kerchunk_test_hdf5_fixtures); default: all of them.
include(GoogleTest)

function(add_kerchunk_test name)
  cmake_parse_arguments(ARG "" "TIMEOUT" "SOURCES;LABELS;LIBS" ${ARGN})
  if(NOT ARG_LABELS)
    message(FATAL_ERROR "add_kerchunk_test(${name}): LABELS is required")
  endif()
  if(NOT ARG_TIMEOUT)
    set(ARG_TIMEOUT 600)
  endif()
  if(NOT ARG_LIBS)
    set(ARG_LIBS kerchunk::kerchunk)
  endif()
  add_executable(${name} ${ARG_SOURCES})
  target_link_libraries(${name} PRIVATE ${ARG_LIBS} kerchunk_test_support
    kerchunk_build_flags GTest::gmock GTest::gtest_main)
  # Listing a corpus test reads the corpus to name its cases, which takes 15 s under
  # AddressSanitizer: well past gtest_discover_tests' default 5 s, which would fail the run.
  gtest_discover_tests(${name}
    DISCOVERY_MODE PRE_TEST
    DISCOVERY_TIMEOUT 300
    PROPERTIES LABELS "${ARG_LABELS}" TIMEOUT ${ARG_TIMEOUT}
               ENVIRONMENT "KERCHUNK_SHARED_DIR=${KERCHUNK_SHARED_DIR};KERCHUNK_BIN=$<TARGET_FILE:kerchunk_cli>")
endfunction()
