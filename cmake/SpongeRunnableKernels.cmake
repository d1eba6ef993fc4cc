# sponge_runnable_kernels(<out-var> <kernel>...)
#
# Sets <out-var> to those of the given kernels (names as in SPONGE_KERNELS) that the CPU
# the tests will run on can execute, decided at configure time, in the given order.
#
# Native builds read /proc/cpuinfo:
#   amd64-bmi2   an x86_64 host whose "flags" list bmi1 and bmi2
#   arm64-*      an aarch64 host; a name containing "sha3" also needs "sha3" in "Features"
#   portable     always
# A kernel with no rule here is kept (with a warning): if the CPU cannot run it, the tests
# forced onto it fail loudly instead of silently never testing it.
#
# Cross builds (CMAKE_CROSSCOMPILING) cannot look at the CPU that will run the tests (often
# qemu-user with a chosen -cpu): the toolchain file or the qemu setup sets
#   SPONGE_TARGET_RUNNABLE_KERNELS   e.g. "arm64-sha3;portable" for -cpu max,
#                                    "portable" for -cpu cortex-a72
# and only the kernels listed there (and compiled in) are kept. Unset (the default, and what
# scripts/test uses) means every compiled kernel: one build serves several emulated CPUs, the
# kernel tests ask each kernel's cpu_supports() at run time and compare it with the
# environment's expectation (SPONGE_EXPECTED_RUNNABLE_KERNELS), and the kernel-forced
# registrations carry the label kernel-<name>, so a run on a CPU without a kernel excludes
# them by label (ctest -LE '^kernel-arm64-sha3$').
function(sponge_runnable_kernels out_var)
  set(kernels ${ARGN})
  set(runnable "")
  if(CMAKE_CROSSCOMPILING)
    if(DEFINED SPONGE_TARGET_RUNNABLE_KERNELS)
      set(allowed ${SPONGE_TARGET_RUNNABLE_KERNELS})
    else()
      # Decided at run time; see above.
      set(allowed ${kernels})
    endif()
    foreach(kernel IN LISTS kernels)
      if(kernel IN_LIST allowed)
        list(APPEND runnable ${kernel})
      endif()
    endforeach()
    set(${out_var} ${runnable} PARENT_SCOPE)
    return()
  endif()

  set(cpu_flags "")
  set(cpu_features "")
  if(EXISTS /proc/cpuinfo)
    file(STRINGS /proc/cpuinfo flag_lines REGEX "^flags[ \t]*:" LIMIT_COUNT 1)
    file(STRINGS /proc/cpuinfo feature_lines REGEX "^Features[ \t]*:" LIMIT_COUNT 1)
    string(REGEX REPLACE "^[^:]*:" "" cpu_flags "${flag_lines}")
    string(REGEX REPLACE "^[^:]*:" "" cpu_features "${feature_lines}")
    separate_arguments(cpu_flags UNIX_COMMAND "${cpu_flags}")
    separate_arguments(cpu_features UNIX_COMMAND "${cpu_features}")
  endif()
  set(processor "${CMAKE_HOST_SYSTEM_PROCESSOR}")

  foreach(kernel IN LISTS kernels)
    if(kernel STREQUAL "portable")
      list(APPEND runnable ${kernel})
    elseif(kernel STREQUAL "amd64-bmi2")
      if(processor MATCHES "^(x86_64|AMD64|amd64)$" AND "bmi1" IN_LIST cpu_flags
         AND "bmi2" IN_LIST cpu_flags)
        list(APPEND runnable ${kernel})
      else()
        message(STATUS "sponge: this CPU (${processor}) lacks BMI1/BMI2: ${kernel} not tested")
      endif()
    elseif(kernel MATCHES "^arm64")
      set(ok FALSE)
      if(processor MATCHES "^(aarch64|arm64|ARM64)$")
        set(ok TRUE)
        if(kernel MATCHES "sha3" AND NOT "sha3" IN_LIST cpu_features)
          set(ok FALSE)
        endif()
      endif()
      if(ok)
        list(APPEND runnable ${kernel})
      else()
        message(STATUS "sponge: this CPU (${processor}) cannot run ${kernel}: not tested")
      endif()
    else()
      message(WARNING "sponge_runnable_kernels: no configure-time CPU check for kernel "
                      "'${kernel}'; it is tested as if this CPU could run it")
      list(APPEND runnable ${kernel})
    endif()
  endforeach()
  set(${out_var} ${runnable} PARENT_SCOPE)
endfunction()
