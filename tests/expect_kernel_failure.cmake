# Runs PROGRAM with VARIABLE=KERNEL (VARIABLE: SPONGE_KERNEL unless given, e.g.
# SPONGE_ASCON_KERNEL) and passes only if the process fails and its stderr
# contains EXPECTED (a plain string, not a regex). EMULATOR ("|"-separated command, e.g.
# "qemu-aarch64|-L|/usr/aarch64-linux-gnu") runs the program in a cross build.
# The stderr must also hold no escape character (the value is shown escaped).
#   cmake -DPROGRAM=... -DKERNEL=... -DEXPECTED=... [-DVARIABLE=...] [-DEMULATOR=...]
#         -P expect_kernel_failure.cmake
foreach(variable PROGRAM KERNEL EXPECTED)
  if(NOT DEFINED ${variable})
    message(FATAL_ERROR "expect_kernel_failure.cmake: ${variable} is not set")
  endif()
endforeach()

if(NOT DEFINED VARIABLE)
  set(VARIABLE SPONGE_KERNEL)
endif()

# KERNEL may spell a newline as <LF> and the escape character as <ESC>.
string(ASCII 10 line_feed)
string(ASCII 27 escape)
string(REPLACE "<LF>" "${line_feed}" KERNEL "${KERNEL}")
string(REPLACE "<ESC>" "${escape}" KERNEL "${KERNEL}")

string(REPLACE "|" ";" emulator "${EMULATOR}")
execute_process(
  COMMAND ${CMAKE_COMMAND} -E env ${VARIABLE}=${KERNEL} ${emulator} ${PROGRAM}
  RESULT_VARIABLE result
  OUTPUT_VARIABLE output
  ERROR_VARIABLE error)
message(STATUS "exit: ${result}")
message(STATUS "stderr: ${error}")

if(result EQUAL 0)
  message(FATAL_ERROR "${VARIABLE}=${KERNEL}: the process succeeded; it must fail\n${output}")
endif()
string(FIND "${error}" "${EXPECTED}" position)
if(position EQUAL -1)
  message(FATAL_ERROR "${VARIABLE}=${KERNEL}: stderr lacks \"${EXPECTED}\"")
endif()
string(FIND "${error}" "${escape}" position)
if(NOT position EQUAL -1)
  message(FATAL_ERROR "${VARIABLE}=${KERNEL}: stderr holds a raw escape character")
endif()
message(STATUS "ok: the process failed with \"${EXPECTED}\"")
