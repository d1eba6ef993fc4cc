# sponge_runnable_kernels(<out-var> <kernel>...)
#
# Sets <out-var> to those of the given kernels (names as in SPONGE_KERNELS) that the CPU
# the tests will run on can execute, decided at configure time, in the given order.
#
# Native builds read /proc/cpuinfo and each kernel's declaration in generated/manifest.json
# (written by the generator from the kernel spec, the one place a kernel's CPU features are
# declared): the kernel's "isa" must be the host's, and every name in its "cpu_features"
# must be in the "flags" (x86) or "Features" (arm64) line, or the "isa" string (riscv64).
# portable always runs.
# A kernel the manifest does not list is kept (with a warning): if the CPU cannot run it,
# the tests forced onto it fail loudly instead of silently never testing it.
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
  set(cpu_isa "")
  if(EXISTS /proc/cpuinfo)
    file(STRINGS /proc/cpuinfo flag_lines REGEX "^flags[ \t]*:" LIMIT_COUNT 1)
    file(STRINGS /proc/cpuinfo feature_lines REGEX "^Features[ \t]*:" LIMIT_COUNT 1)
    file(STRINGS /proc/cpuinfo isa_lines REGEX "^isa[ \t]*:" LIMIT_COUNT 1)
    string(REGEX REPLACE "^[^:]*:" "" cpu_flags "${flag_lines}")
    string(REGEX REPLACE "^[^:]*:" "" cpu_features "${feature_lines}")
    separate_arguments(cpu_flags UNIX_COMMAND "${cpu_flags}")
    separate_arguments(cpu_features UNIX_COMMAND "${cpu_features}")
    # riscv64: "isa : rv64imafdcv_zicsr_zba_zbb", the single-letter extensions after rv64,
    # then one multi-letter extension after each "_".
    string(REGEX REPLACE "^[^:]*:[ \t]*rv64" "" isa_string "${isa_lines}")
    string(REPLACE "_" ";" isa_parts "${isa_string}")
    if(isa_parts)
      list(POP_FRONT isa_parts letters)
      string(REGEX MATCHALL "[a-z]" cpu_isa "${letters}")
      list(APPEND cpu_isa ${isa_parts})
    endif()
  endif()
  set(processor "${CMAKE_HOST_SYSTEM_PROCESSOR}")

  set(host_isa "")
  if(processor MATCHES "^(x86_64|AMD64|amd64)$")
    set(host_isa amd64)
    set(host_features ${cpu_flags})
  elseif(processor MATCHES "^(aarch64|arm64|ARM64)$")
    set(host_isa arm64)
    set(host_features ${cpu_features})
  elseif(processor STREQUAL "riscv64")
    set(host_isa riscv64)
    set(host_features ${cpu_isa})
  endif()
  file(READ "${PROJECT_SOURCE_DIR}/generated/manifest.json" manifest)
  string(JSON file_count LENGTH "${manifest}" files)
  math(EXPR last_file "${file_count} - 1")

  foreach(kernel IN LISTS kernels)
    if(kernel STREQUAL "portable")
      list(APPEND runnable ${kernel})
      continue()
    endif()
    set(declared FALSE)
    foreach(f RANGE ${last_file})
      string(JSON name GET "${manifest}" files ${f} kernel)
      if(NOT name STREQUAL kernel)
        continue()
      endif()
      set(declared TRUE)
      string(JSON isa GET "${manifest}" files ${f} isa)
      string(JSON feature_count LENGTH "${manifest}" files ${f} cpu_features)
      set(missing "")
      if(NOT isa STREQUAL host_isa)
        set(missing "an ${isa} CPU")
      elseif(feature_count GREATER 0)
        math(EXPR last_feature "${feature_count} - 1")
        foreach(i RANGE ${last_feature})
          string(JSON feature GET "${manifest}" files ${f} cpu_features ${i})
          if(NOT feature IN_LIST host_features)
            list(APPEND missing ${feature})
          endif()
        endforeach()
      endif()
      if(missing)
        message(STATUS "sponge: this CPU (${processor}) lacks ${missing}: ${kernel} not tested")
      else()
        list(APPEND runnable ${kernel})
      endif()
    endforeach()
    if(NOT declared)
      message(WARNING "sponge_runnable_kernels: generated/manifest.json declares no kernel "
                      "'${kernel}'; it is tested as if this CPU could run it")
      list(APPEND runnable ${kernel})
    endif()
  endforeach()
  set(${out_var} ${runnable} PARENT_SCOPE)
endfunction()

# sponge_kernel_cpu_features(<kernel> <out-var>)
#
# Sets <out-var> to the CPU features generated/manifest.json declares for <kernel> (empty for
# portable, for a kernel of base instructions such as arm64-scalar, and for an unknown name).
function(sponge_kernel_cpu_features kernel out_var)
  set(features "")
  file(READ "${PROJECT_SOURCE_DIR}/generated/manifest.json" manifest)
  string(JSON file_count LENGTH "${manifest}" files)
  math(EXPR last_file "${file_count} - 1")
  foreach(f RANGE ${last_file})
    string(JSON name GET "${manifest}" files ${f} kernel)
    if(NOT name STREQUAL kernel)
      continue()
    endif()
    string(JSON feature_count LENGTH "${manifest}" files ${f} cpu_features)
    if(feature_count GREATER 0)
      math(EXPR last_feature "${feature_count} - 1")
      foreach(i RANGE ${last_feature})
        string(JSON feature GET "${manifest}" files ${f} cpu_features ${i})
        list(APPEND features ${feature})
      endforeach()
    endif()
  endforeach()
  set(${out_var} ${features} PARENT_SCOPE)
endfunction()
