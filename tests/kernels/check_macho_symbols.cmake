# Assembles a generated kernel for macOS and checks the Mach-O object: every entry of the
# manifest must appear with the Mach-O underscore prefix, and none without it.
#
#   cmake -DCLANG=... -DNM=... [-DFILE_PROGRAM=...] -DSOURCE=<.S> -DOUTPUT=<.o>
#         -DMANIFEST=<manifest.json> -DTARGET=<clang target> -DARCH=<file's arch name>
#         -P check_macho_symbols.cmake
# e.g. TARGET=x86_64-apple-macos ARCH=x86_64, or TARGET=arm64-apple-macos ARCH=arm64.
foreach(variable CLANG NM SOURCE OUTPUT MANIFEST TARGET ARCH)
  if(NOT DEFINED ${variable} OR "${${variable}}" STREQUAL "")
    message(FATAL_ERROR "check_macho_symbols.cmake: ${variable} is not set")
  endif()
endforeach()

file(REMOVE "${OUTPUT}")
execute_process(COMMAND ${CLANG} --target=${TARGET} -c "${SOURCE}" -o "${OUTPUT}"
  RESULT_VARIABLE result OUTPUT_VARIABLE output ERROR_VARIABLE error)
if(NOT result EQUAL 0 OR NOT EXISTS "${OUTPUT}")
  message(FATAL_ERROR "clang --target=${TARGET} could not assemble ${SOURCE}:\n"
                      "${output}${error}")
endif()
if(NOT "${error}" STREQUAL "")
  message(STATUS "assembler diagnostics:\n${error}")
endif()

if(FILE_PROGRAM)
  execute_process(COMMAND ${FILE_PROGRAM} -b "${OUTPUT}" OUTPUT_VARIABLE kind)
  message(STATUS "file: ${kind}")
  if(NOT kind MATCHES "Mach-O 64-bit ${ARCH} object")
    message(FATAL_ERROR "${OUTPUT} is not a Mach-O 64-bit ${ARCH} object: ${kind}")
  endif()
endif()

execute_process(COMMAND ${NM} "${OUTPUT}"
  RESULT_VARIABLE result OUTPUT_VARIABLE symbols ERROR_VARIABLE error)
if(NOT result EQUAL 0)
  message(FATAL_ERROR "${NM} ${OUTPUT} failed: ${error}")
endif()
message(STATUS "symbols:\n${symbols}")

get_filename_component(source_name "${SOURCE}" NAME)
include("${CMAKE_CURRENT_LIST_DIR}/manifest_entries.cmake")
sponge_manifest_entries("${MANIFEST}" "${source_name}" entries)
set(problems "")
set(checked 0)
foreach(symbol IN LISTS entries)
  # A text symbol (t or T: private extern shows as local text) named _<symbol>.
  if(NOT symbols MATCHES "[0-9a-f]+ [tT] _${symbol}\n")
    list(APPEND problems "no text symbol _${symbol}")
  endif()
  if(symbols MATCHES " ${symbol}\n")
    list(APPEND problems "${symbol} appears without the Mach-O underscore prefix")
  endif()
  math(EXPR checked "${checked} + 1")
endforeach()
if(checked EQUAL 0)
  list(APPEND problems "the manifest lists no entries for ${source_name}")
endif()
if(problems)
  list(JOIN problems "\n  " text)
  message(FATAL_ERROR "${OUTPUT}:\n  ${text}")
endif()
message(STATUS "ok: ${checked} entries with the Mach-O underscore prefix in ${OUTPUT}")
