# add_kerchunk_test(<name> SOURCES <files...> LABELS <labels...> [LIBS <libs...>])
# One GoogleTest executable; each TEST becomes a ctest test carrying the labels
# (unit, corpus, client, fuzz) so `ctest -L unit` runs a fast subset.
include(GoogleTest)

function(add_kerchunk_test name)
  cmake_parse_arguments(ARG "" "TIMEOUT" "SOURCES;LABELS;LIBS" ${ARGN})
  if(NOT ARG_LABELS)
    message(FATAL_ERROR "add_kerchunk_test(${name}): LABELS is required")
  endif()
  if(NOT ARG_TIMEOUT)
    set(ARG_TIMEOUT 600)
  endif()
  add_executable(${name} ${ARG_SOURCES})
  target_link_libraries(${name} PRIVATE kerchunk::kerchunk kerchunk_test_support
    kerchunk_build_flags GTest::gmock GTest::gtest_main ${ARG_LIBS})
  gtest_discover_tests(${name}
    DISCOVERY_MODE PRE_TEST
    PROPERTIES LABELS "${ARG_LABELS}" TIMEOUT ${ARG_TIMEOUT}
               ENVIRONMENT "KERCHUNK_SHARED_DIR=${KERCHUNK_SHARED_DIR};KERCHUNK_BIN=$<TARGET_FILE:kerchunk_cli>")
endfunction()
