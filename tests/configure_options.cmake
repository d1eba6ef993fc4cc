# Configures the project the ways users do and checks the options they type are honoured:
#   -DBUILD_TESTING=OFF                 no tests are built (the CMake convention)
#   -DCMAKE_TOOLCHAIN_FILE=<aarch64>    the generator (a host tool) is off by default
#   (nothing)                           SPONGE_WERROR is off: warnings are a developer matter
#   cmake -DSOURCE_DIR=... -DWORK_DIR=... -DGENERATOR=... [-DTOOLCHAIN_FILE=...] -P configure_options.cmake
foreach(variable SOURCE_DIR WORK_DIR GENERATOR)
  if(NOT DEFINED ${variable} OR "${${variable}}" STREQUAL "")
    message(FATAL_ERROR "configure_options.cmake: ${variable} is not set")
  endif()
endforeach()
file(REMOVE_RECURSE "${WORK_DIR}")

# configure(<name> <args>...): configures into WORK_DIR/<name>; fails the check on error.
function(configure name)
  execute_process(COMMAND ${CMAKE_COMMAND} -S "${SOURCE_DIR}" -B "${WORK_DIR}/${name}"
                          -G "${GENERATOR}" ${ARGN}
                  RESULT_VARIABLE result OUTPUT_VARIABLE output ERROR_VARIABLE error)
  if(NOT result EQUAL 0)
    message(FATAL_ERROR "configure ${name} (${ARGN}) failed:\n${output}\n${error}")
  endif()
endfunction()

function(cache_value name variable out)
  file(STRINGS "${WORK_DIR}/${name}/CMakeCache.txt" line REGEX "^${variable}:[A-Z]+=")
  string(REGEX REPLACE "^[^=]*=" "" value "${line}")
  set(${out} "${value}" PARENT_SCOPE)
endfunction()

configure(no_testing -DBUILD_TESTING=OFF)
if(EXISTS "${WORK_DIR}/no_testing/CTestTestfile.cmake" OR EXISTS "${WORK_DIR}/no_testing/tests")
  message(FATAL_ERROR "-DBUILD_TESTING=OFF still configured the tests")
endif()
message(STATUS "ok: -DBUILD_TESTING=OFF configures no tests")

configure(default)
cache_value(default SPONGE_WERROR werror)
if(werror)
  message(FATAL_ERROR "SPONGE_WERROR defaults to '${werror}' for users; it must be OFF")
endif()
message(STATUS "ok: SPONGE_WERROR is off by default")

if(TOOLCHAIN_FILE)
  configure(cross "-DCMAKE_TOOLCHAIN_FILE=${TOOLCHAIN_FILE}" -DBUILD_TESTING=OFF)
  cache_value(cross SPONGE_BUILD_GENERATOR generator)
  if(generator OR EXISTS "${WORK_DIR}/cross/generator")
    message(FATAL_ERROR "a cross build configured the generator (SPONGE_BUILD_GENERATOR=${generator})")
  endif()
  message(STATUS "ok: a cross build leaves the generator out by default")
endif()
