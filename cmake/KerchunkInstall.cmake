include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

install(TARGETS kerchunk ${KERCHUNK_BUILT_COMPONENTS} kerchunk_build_flags EXPORT kerchunkTargets
  ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
  LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
  RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(TARGETS kerchunk_cli RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
# The Slurm driver of the sharded scan (docs/scan.md), beside the kerchunk it runs by default.
install(PROGRAMS contrib/slurm/kerchunk-slurm-scan DESTINATION ${CMAKE_INSTALL_BINDIR})
foreach(cmd IN LISTS KERCHUNK_COMMANDS)
  install(CODE "execute_process(COMMAND \${CMAKE_COMMAND} -E create_symlink kerchunk
    \"\$ENV{DESTDIR}\${CMAKE_INSTALL_PREFIX}/${CMAKE_INSTALL_BINDIR}/kerchunk-${cmd}\")")
endforeach()
install(DIRECTORY include/kerchunk DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(EXPORT kerchunkTargets NAMESPACE kerchunk::
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/kerchunk)
configure_package_config_file(cmake/kerchunkConfig.cmake.in
  ${CMAKE_CURRENT_BINARY_DIR}/kerchunkConfig.cmake
  INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/kerchunk)
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/kerchunkConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/kerchunkConfig.cmake
  ${CMAKE_CURRENT_BINARY_DIR}/kerchunkConfigVersion.cmake
  DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/kerchunk)
