# Instruments a CMake project left as it is, every target that calls the CUDA API:
#
#   cmake -S . -B build -DCMAKE_PROJECT_INCLUDE=<prefix>/lib/cmake/gmemlint/instrument-all.cmake
#
# CMake includes this file at the project's first project() call (installed next to
# gmemlintConfig.cmake, by cmake/package.cmake). At the end of the top-level CMakeLists.txt, when
# every target and its links are known, gmemlint_instrument() is called on each program and
# library built here that has CUDA sources or links the CUDA runtime or driver (CUDA::cudart,
# cudart_static, CUDA::cuda_driver, ...): the same function a project calls itself. Static
# libraries pass the runtime on to what links them, so a C++ program that calls the CUDA API
# only through one is covered too. The targets instrumented are listed at configure time.
include_guard(GLOBAL)
include("${CMAKE_CURRENT_LIST_DIR}/gmemlintConfig.cmake")

function(_gmemlint_targets_in dir out_var)
  get_property(targets DIRECTORY "${dir}" PROPERTY BUILDSYSTEM_TARGETS)
  get_property(subdirs DIRECTORY "${dir}" PROPERTY SUBDIRECTORIES)
  foreach(sub IN LISTS subdirs)
    _gmemlint_targets_in("${sub}" more)
    list(APPEND targets ${more})
  endforeach()
  set(${out_var} "${targets}" PARENT_SCOPE)
endfunction()

function(_gmemlint_calls_cuda target out_var)
  set(${out_var} FALSE PARENT_SCOPE)
  get_target_property(sources ${target} SOURCES)
  foreach(src IN LISTS sources)
    if(src MATCHES "\\.cu$")
      set(${out_var} TRUE PARENT_SCOPE)
      return()
    endif()
  endforeach()
  get_target_property(libs ${target} LINK_LIBRARIES)
  foreach(lib IN LISTS libs)
    if(lib MATCHES "CUDA::(cudart|cuda_driver)|cudart|(^|/)(lib)?cuda(\\.so|\\.a)?$")
      set(${out_var} TRUE PARENT_SCOPE)
      return()
    endif()
  endforeach()
endfunction()

function(_gmemlint_instrument_all)
  _gmemlint_targets_in("${CMAKE_SOURCE_DIR}" targets)
  set(chosen "")
  foreach(target IN LISTS targets)
    get_target_property(type ${target} TYPE)
    if(type MATCHES "^(EXECUTABLE|SHARED_LIBRARY|MODULE_LIBRARY|STATIC_LIBRARY|OBJECT_LIBRARY)$")
      _gmemlint_calls_cuda(${target} calls)
      if(calls)
        list(APPEND chosen ${target})
      endif()
    endif()
  endforeach()
  if(chosen)
    gmemlint_instrument(${chosen})
    string(REPLACE ";" " " names "${chosen}")
    message(STATUS "gmemlint: instrumented ${names}")
  else()
    message(WARNING "gmemlint: no target has CUDA sources or links the CUDA runtime: nothing "
      "instrumented (call gmemlint_instrument(<target>) in the project)")
  endif()
endfunction()

cmake_language(DEFER DIRECTORY "${CMAKE_SOURCE_DIR}" CALL _gmemlint_instrument_all)
