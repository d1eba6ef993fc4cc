# Assembles a generated amd64 kernel for Windows x64 and reads its unwind tables back: every
# entry of the manifest must have a Windows entry under its C name whose unwind codes push
# rdi and rsi (and, with SAVED_XMM, save xmm6-xmm15), and a System V function <name>_sysv
# with unwind codes of its own.
#
#   cmake -DASSEMBLER=<"|"-separated command> -DREADOBJ=... -DSOURCE=<.S> -DOUTPUT=<.o>
#         -DMANIFEST=<manifest.json> [-DSAVED_XMM=ON] -P check_win64_unwind.cmake
# ASSEMBLER is "clang|--target=x86_64-pc-windows-msvc" (the route of an MSVC user with
# clang-cl) or "x86_64-w64-mingw32-gcc-posix" (GNU as, the mingw-w64 build's).
foreach(variable ASSEMBLER READOBJ SOURCE OUTPUT MANIFEST)
  if(NOT DEFINED ${variable} OR "${${variable}}" STREQUAL "")
    message(FATAL_ERROR "check_win64_unwind.cmake: ${variable} is not set")
  endif()
endforeach()

string(REPLACE "|" ";" assembler "${ASSEMBLER}")
file(REMOVE "${OUTPUT}")
execute_process(COMMAND ${assembler} -c "${SOURCE}" -o "${OUTPUT}"
  RESULT_VARIABLE result OUTPUT_VARIABLE output ERROR_VARIABLE error)
if(NOT result EQUAL 0 OR NOT EXISTS "${OUTPUT}")
  message(FATAL_ERROR "${ASSEMBLER} could not assemble ${SOURCE}:\n${output}${error}")
endif()
if(NOT "${error}" STREQUAL "")
  message(FATAL_ERROR "assembler diagnostics for ${SOURCE}:\n${error}")
endif()

execute_process(COMMAND ${READOBJ} --unwind "${OUTPUT}"
  RESULT_VARIABLE result OUTPUT_VARIABLE unwind ERROR_VARIABLE error)
if(NOT result EQUAL 0)
  message(FATAL_ERROR "${READOBJ} --unwind ${OUTPUT} failed: ${error}")
endif()
if(NOT unwind MATCHES "Format: COFF-x86-64")
  message(FATAL_ERROR "${OUTPUT} is not a COFF x86-64 object:\n${unwind}")
endif()

# The RuntimeFunction block of `symbol` (from its StartAddress line to the next one).
function(runtime_function symbol out_var)
  string(FIND "${unwind}" "StartAddress: ${symbol} (" start)
  if(start EQUAL -1)
    set(${out_var} "" PARENT_SCOPE)
    return()
  endif()
  string(SUBSTRING "${unwind}" ${start} -1 rest)
  string(FIND "${rest}" "RuntimeFunction {" end)
  string(SUBSTRING "${rest}" 0 ${end} block)
  set(${out_var} "${block}" PARENT_SCOPE)
endfunction()

get_filename_component(source_name "${SOURCE}" NAME)
include("${CMAKE_CURRENT_LIST_DIR}/manifest_entries.cmake")
sponge_manifest_entries("${MANIFEST}" "${source_name}" entries)
set(problems "")
set(checked 0)
foreach(symbol IN LISTS entries)
  runtime_function("${symbol}" windows_entry)
  runtime_function("${symbol}_sysv" sysv_function)
  if(windows_entry STREQUAL "")
    list(APPEND problems "no unwind data for the Windows entry ${symbol}")
  else()
    foreach(code "PUSH_NONVOL reg=RDI" "PUSH_NONVOL reg=RSI")
      if(NOT windows_entry MATCHES "${code}")
        list(APPEND problems "${symbol}: no ${code}")
      endif()
    endforeach()
    if(SAVED_XMM)
      foreach(xmm RANGE 6 15)
        if(NOT windows_entry MATCHES "SAVE_XMM128 reg=XMM${xmm},")
          list(APPEND problems "${symbol}: xmm${xmm} not saved")
        endif()
      endforeach()
    endif()
  endif()
  if(sysv_function STREQUAL "")
    list(APPEND problems "no unwind data for ${symbol}_sysv")
  endif()
  math(EXPR checked "${checked} + 1")
endforeach()
if(checked EQUAL 0)
  list(APPEND problems "the manifest lists no entries for ${source_name}")
endif()
if(problems)
  list(JOIN problems "\n  " text)
  message(FATAL_ERROR "${OUTPUT}:\n  ${text}\n${unwind}")
endif()
message(STATUS "${source_name}: ${checked} Windows entries and their System V functions have "
               "unwind data (${ASSEMBLER})")
