# What `cmake --install` lays out besides the programs and libraries: a CMake package
# (find_package(gmemlint): imported targets and gmemlint_instrument(), cmake/gmemlintConfig.cmake.in),
# a pkg-config file for the runtime (gmemrt.pc), the public headers, and man pages generated
# from each program's own help (gmemlint --man; gmemcc's and gmemrun's --help through
# cmake/help2man.cmake), so that they never disagree with it.
include(CMakePackageConfigHelpers)
set(GMEMLINT_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/gmemlint)
set(GMEMLINT_INSTALL_PKGCONFIGDIR ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
# the prefix as seen from the package's two files, which find the tree from where they lie
file(RELATIVE_PATH GMEMLINT_CMAKEDIR_TO_PREFIX
  ${CMAKE_INSTALL_FULL_LIBDIR}/cmake/gmemlint ${CMAKE_INSTALL_PREFIX})
file(RELATIVE_PATH GMEMLINT_PKGCONFIGDIR_TO_PREFIX
  ${CMAKE_INSTALL_FULL_LIBDIR}/pkgconfig ${CMAKE_INSTALL_PREFIX})

install(DIRECTORY ${CMAKE_SOURCE_DIR}/include/gmemlint/ DESTINATION
  ${CMAKE_INSTALL_INCLUDEDIR}/gmemlint FILES_MATCHING PATTERN "*.h")

# ---- man pages ----
set(_man_dir ${CMAKE_BINARY_DIR}/man)
file(MAKE_DIRECTORY ${_man_dir})
add_custom_command(OUTPUT ${_man_dir}/gmemlint.1
  COMMAND ${CMAKE_COMMAND} -DPROGRAM=$<TARGET_FILE:gmemlint> -DHELP_OPTION=--man -DRAW=1
          -DOUT=${_man_dir}/gmemlint.1 -P ${CMAKE_SOURCE_DIR}/cmake/help2man.cmake
  DEPENDS gmemlint ${CMAKE_SOURCE_DIR}/cmake/help2man.cmake
  COMMENT "Generating gmemlint.1" VERBATIM)
foreach(prog gmemcc gmemrun)
  if(prog STREQUAL "gmemcc")
    set(help_option --gmem-help)
    set(summary "build CUDA programs instrumented with gmemlint's runtime")
  else()
    set(help_option --help)
    set(summary "run a CUDA program with gmemlint's runtime injected, no rebuild")
  endif()
  add_custom_command(OUTPUT ${_man_dir}/${prog}.1
    COMMAND ${CMAKE_COMMAND} -DPROGRAM=$<TARGET_FILE:${prog}> -DHELP_OPTION=${help_option}
            -DNAME=${prog} "-DSUMMARY=${summary}" -DVERSION=${PROJECT_VERSION}
            -DBUILD_DIR=${CMAKE_BINARY_DIR} -DSOURCE_DIR=${CMAKE_SOURCE_DIR}
            -DOUT=${_man_dir}/${prog}.1 -P ${CMAKE_SOURCE_DIR}/cmake/help2man.cmake
    DEPENDS ${prog} ${CMAKE_SOURCE_DIR}/cmake/help2man.cmake
    COMMENT "Generating ${prog}.1" VERBATIM)
endforeach()
add_custom_target(man_pages ALL
  DEPENDS ${_man_dir}/gmemlint.1 ${_man_dir}/gmemcc.1 ${_man_dir}/gmemrun.1)
install(FILES ${_man_dir}/gmemlint.1 ${_man_dir}/gmemcc.1 ${_man_dir}/gmemrun.1
  DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)

# ---- CMake package and pkg-config file ----
# Written where libgmemrt's link dependencies are known: runtime/CMakeLists.txt defers a call
# to the end of its directory, as it does for gmemcc (cmake/gmemcc.cmake), and the list is the
# same one gmemcc uses.
function(gmemlint_write_package)
  set(deps "")
  _gmemcc_link_items(gmemrt deps)
  list(REMOVE_DUPLICATES deps)
  # Libraries by name, not by this machine's paths: the installed tree may move, or be copied
  # to a machine that keeps them elsewhere (the linker looks -lNAME up on its own path).
  set(named "")
  foreach(dep IN LISTS deps)
    if(dep MATCHES "^/.*/lib([^/]+)\\.(so|a)(\\.[0-9.]+)?$")
      list(APPEND named "-l${CMAKE_MATCH_1}")
    else()
      list(APPEND named "${dep}")
    endif()
  endforeach()
  set(deps "${named}")
  string(REPLACE ";" " " GMEMRT_DEPS_PC "${deps}")
  # the pkg-config modules among them, for `pkg-config --static` (their own private libraries)
  set(GMEMRT_REQUIRES_PC "")
  get_target_property(direct gmemrt INTERFACE_LINK_LIBRARIES)
  foreach(lib IN LISTS direct)
    if(lib MATCHES "^PkgConfig::(.+)$")
      string(TOLOWER "${CMAKE_MATCH_1}" module)
      string(APPEND GMEMRT_REQUIRES_PC " ${module}")
    endif()
  endforeach()
  set(GMEMLINT_VERSION ${PROJECT_VERSION})
  set(gen ${CMAKE_BINARY_DIR}/package)
  configure_file(${CMAKE_SOURCE_DIR}/cmake/gmemlintConfig.cmake.in ${gen}/gmemlintConfig.cmake
    @ONLY)
  configure_file(${CMAKE_SOURCE_DIR}/cmake/gmemrt.pc.in ${gen}/gmemrt.pc.in @ONLY)
  # the list may hold generator expressions ($<TARGET_FILE:...>): generated, not configured
  file(GENERATE OUTPUT ${gen}/gmemrt.pc INPUT ${gen}/gmemrt.pc.in)
  file(GENERATE OUTPUT ${gen}/gmemlintDeps.cmake CONTENT
    "# libgmemrt's link dependencies, as gmemcc links them\nset(_gmemlint_gmemrt_deps \"${deps}\")\n")
  write_basic_package_version_file(${gen}/gmemlintConfigVersion.cmake
    VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
  install(FILES ${gen}/gmemlintConfig.cmake ${gen}/gmemlintConfigVersion.cmake
    ${gen}/gmemlintDeps.cmake ${CMAKE_SOURCE_DIR}/cmake/instrument-all.cmake
    DESTINATION ${GMEMLINT_INSTALL_CMAKEDIR})
  install(FILES ${gen}/gmemrt.pc DESTINATION ${GMEMLINT_INSTALL_PKGCONFIGDIR})
endfunction()
