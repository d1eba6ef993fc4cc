# The install check: `cmake --install` of the build into a fresh prefix, then the consumer
# in install_consumer/ is built against that prefix twice, with find_package(sponge) and with
# pkg-config (a direct compiler command), then the C-only consumer in C_CONSUMER_DIR with
# find_package(sponge); each must print keccak256("abc").
#   cmake -DBUILD_DIR=... -DCONSUMER_DIR=... -DC_CONSUMER_DIR=... -DWORK_DIR=... -DGENERATOR=...
#         -DMAKE_PROGRAM=... -DCXX_COMPILER=... -DC_COMPILER=... [-DCXX_FLAGS=...] [-DBUILD_TYPE=...]
#         [-DTOOLCHAIN_FILE=...] [-DEMULATOR=<"|"-separated command>] [-DEXECUTABLE_SUFFIX=.exe]
#         -P install_check.cmake
# A cross build passes its toolchain file (the consumer is configured with it, the prefix
# added to its find root path), its emulator (the consumers run under it) and its programs'
# suffix (.exe for Windows).
cmake_minimum_required(VERSION 3.25)
foreach(variable BUILD_DIR CONSUMER_DIR C_CONSUMER_DIR WORK_DIR GENERATOR CXX_COMPILER C_COMPILER)
  if(NOT DEFINED ${variable} OR "${${variable}}" STREQUAL "")
    message(FATAL_ERROR "install_check.cmake: ${variable} is not set")
  endif()
endforeach()

set(expected "keccak256(abc) = 4e03657aea45a94fc7d47ba826c8d667c0d1e6e33a64a036ec44f58fa12d6c45")
set(prefix "${WORK_DIR}/prefix")

# Runs a command; stops the check with its output when it fails. Sets step_output.
function(run_step name)
  message(STATUS "== ${name}: ${ARGN}")
  execute_process(COMMAND ${ARGN} RESULT_VARIABLE result OUTPUT_VARIABLE output
                  ERROR_VARIABLE error)
  if(NOT result EQUAL 0)
    message(FATAL_ERROR "${name} failed (${result})\n${output}\n${error}")
  endif()
  set(step_output "${output}" PARENT_SCOPE)
endfunction()

string(REPLACE "|" ";" emulator "${EMULATOR}")
function(check_consumer_output name program)
  run_step("run ${name} consumer" ${emulator} "${program}")
  message(STATUS "${step_output}")
  string(FIND "${step_output}" "${expected}" position)
  if(position EQUAL -1)
    message(FATAL_ERROR "${name} consumer printed\n${step_output}\nexpected \"${expected}\"")
  endif()
endfunction()

file(REMOVE_RECURSE "${WORK_DIR}")
file(MAKE_DIRECTORY "${WORK_DIR}")

run_step("install" "${CMAKE_COMMAND}" --install "${BUILD_DIR}" --prefix "${prefix}")

# 1. find_package(sponge) + sponge::sponge
set(common_configure_args -G "${GENERATOR}" "-DCMAKE_PREFIX_PATH=${prefix}")
if(MAKE_PROGRAM)
  list(APPEND common_configure_args "-DCMAKE_MAKE_PROGRAM=${MAKE_PROGRAM}")
endif()
if(BUILD_TYPE)
  list(APPEND common_configure_args "-DCMAKE_BUILD_TYPE=${BUILD_TYPE}")
endif()
if(TOOLCHAIN_FILE)
  list(APPEND common_configure_args "-DCMAKE_TOOLCHAIN_FILE=${TOOLCHAIN_FILE}"
       "-DCMAKE_FIND_ROOT_PATH=${prefix}")
endif()
set(configure_args -S "${CONSUMER_DIR}" -B "${WORK_DIR}/find_package" ${common_configure_args}
    "-DCMAKE_CXX_COMPILER=${CXX_COMPILER}" "-DCMAKE_CXX_FLAGS=${CXX_FLAGS}")
run_step("configure find_package consumer" "${CMAKE_COMMAND}" ${configure_args})
run_step("build find_package consumer" "${CMAKE_COMMAND}" --build "${WORK_DIR}/find_package")
check_consumer_output("find_package" "${WORK_DIR}/find_package/consumer${EXECUTABLE_SUFFIX}")

# 2. pkg-config: c++ -std=c++20 main.cpp $(pkg-config --cflags --libs sponge)
find_program(PKG_CONFIG_EXECUTABLE NAMES pkg-config pkgconf REQUIRED)
file(GLOB_RECURSE pc_files "${prefix}/*/sponge.pc")
list(LENGTH pc_files pc_count)
if(NOT pc_count EQUAL 1)
  message(FATAL_ERROR "expected one installed sponge.pc under ${prefix}, found: ${pc_files}")
endif()
get_filename_component(pc_dir "${pc_files}" DIRECTORY)
set(ENV{PKG_CONFIG_PATH} "${pc_dir}")
run_step("pkg-config" "${PKG_CONFIG_EXECUTABLE}" --cflags --libs sponge)
string(STRIP "${step_output}" pkg_flags)
message(STATUS "pkg-config --cflags --libs sponge: ${pkg_flags}")
string(FIND "${pkg_flags}" "${prefix}" position)
if(position EQUAL -1)
  message(FATAL_ERROR "sponge.pc does not point into the install prefix ${prefix}: ${pkg_flags}")
endif()
separate_arguments(pkg_flags UNIX_COMMAND "${pkg_flags}")
separate_arguments(cxx_flags UNIX_COMMAND "${CXX_FLAGS}")
run_step("build pkg-config consumer" "${CXX_COMPILER}" -std=c++20 ${cxx_flags}
         "${CONSUMER_DIR}/main.cpp" ${pkg_flags} -o "${WORK_DIR}/consumer_pkg_config${EXECUTABLE_SUFFIX}")
check_consumer_output("pkg-config" "${WORK_DIR}/consumer_pkg_config${EXECUTABLE_SUFFIX}")

# 3. A C-only project (no CXX language enabled): find_package(sponge) + sponge::sponge must
#    link the static library's C++ runtime by itself.
run_step("configure C-only consumer" "${CMAKE_COMMAND}" -S "${C_CONSUMER_DIR}"
         -B "${WORK_DIR}/c_only" ${common_configure_args} "-DCMAKE_C_COMPILER=${C_COMPILER}"
         "-DCMAKE_C_FLAGS=${CXX_FLAGS}")
run_step("build C-only consumer" "${CMAKE_COMMAND}" --build "${WORK_DIR}/c_only")
check_consumer_output("C-only find_package" "${WORK_DIR}/c_only/c_consumer${EXECUTABLE_SUFFIX}")

# 4. The OpenSSL provider, where it is built: installed as <libdir>/ossl-modules/sponge.so,
#    and (given an openssl command; not in sanitizer builds) loadable from there.
if(PROVIDER_MODULE)
  set(module "${prefix}/${PROVIDER_MODULE}")
  if(NOT EXISTS "${module}")
    message(FATAL_ERROR "the OpenSSL provider was not installed as ${module}")
  endif()
  if(OPENSSL_COMMAND)
    get_filename_component(module_dir "${module}" DIRECTORY)
    run_step("openssl list the installed provider" "${OPENSSL_COMMAND}" list -digest-algorithms
             -provider-path "${module_dir}" -provider sponge)
    string(FIND "${step_output}" "KT128 } @ sponge" position)
    if(position EQUAL -1)
      message(FATAL_ERROR "openssl list with the installed provider printed\n${step_output}")
    endif()
  endif()
  message(STATUS "OpenSSL provider installed as ${module}")
endif()
