# Runs PROGRAM with SPONGE_KERNEL=KERNEL and passes only if the process fails and its stderr
# contains EXPECTED (a plain string, not a regex). EMULATOR ("|"-separated command, e.g.
# "qemu-aarch64|-L|/usr/aarch64-linux-gnu") runs the program in a cross build.
#   cmake -DPROGRAM=... -DKERNEL=... -DEXPECTED=... [-DEMULATOR=...] -P expect_kernel_failure.cmake
foreach(variable PROGRAM KERNEL EXPECTED)
  if(NOT DEFINED ${variable})
    message(FATAL_ERROR "expect_kernel_failure.cmake: ${variable} is not set")
  endif()
endforeach()

string(REPLACE "|" ";" emulator "${EMULATOR}")
execute_process(
  COMMAND ${CMAKE_COMMAND} -E env SPONGE_KERNEL=${KERNEL} ${emulator} ${PROGRAM}
  RESULT_VARIABLE result
  OUTPUT_VARIABLE output
  ERROR_VARIABLE error)
message(STATUS "exit: ${result}")
message(STATUS "stderr: ${error}")

if(result EQUAL 0)
  message(FATAL_ERROR "SPONGE_KERNEL=${KERNEL}: the process succeeded; it must fail\n${output}")
endif()
string(FIND "${error}" "${EXPECTED}" position)
if(position EQUAL -1)
  message(FATAL_ERROR "SPONGE_KERNEL=${KERNEL}: stderr lacks \"${EXPECTED}\"")
endif()
message(STATUS "ok: the process failed with \"${EXPECTED}\"")
