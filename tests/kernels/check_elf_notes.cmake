# Checks the ELF object of a generated kernel:
#   - a .note.GNU-stack section without the X flag (else the linker makes the stack executable)
#   - a GNU property note whose FEATURE_LIST feature list ("x86 feature: ..." or "AArch64
#     feature: ..." in readelf -n) has every one of FEATURES: IBT and SHSTK for amd64 (else
#     -fcf-protection programs silently lose CET), BTI and PAC for arm64 (else
#     -mbranch-protection programs silently lose BTI)
#   - every entry of the manifest as a hidden global FUNC symbol
#
#   cmake -DREADELF=... -DOBJECT=... -DFEATURE_LIST=x86|AArch64|none -DFEATURES=<"|"-separated>
#         (FEATURE_LIST=none, FEATURES=none: an ISA without such a note, riscv64)
#         [-DMANIFEST=...] [-DEXPECT_MISSING_NOTES=ON] -P check_elf_notes.cmake
#
# EXPECT_MISSING_NOTES=ON is the negative control: the object must fail both note checks.
foreach(variable READELF OBJECT FEATURE_LIST FEATURES)
  if(NOT DEFINED ${variable} OR "${${variable}}" STREQUAL "")
    message(FATAL_ERROR "check_elf_notes.cmake: ${variable} is not set")
  endif()
endforeach()
if(NOT EXISTS "${OBJECT}")
  message(FATAL_ERROR "check_elf_notes.cmake: no object at '${OBJECT}'")
endif()

function(run_readelf out_var)
  execute_process(COMMAND ${READELF} -W ${ARGN} ${OBJECT}
    RESULT_VARIABLE result OUTPUT_VARIABLE output ERROR_VARIABLE error)
  if(NOT result EQUAL 0)
    message(FATAL_ERROR "readelf ${ARGN} ${OBJECT} failed (${result}): ${error}")
  endif()
  set(${out_var} "${output}" PARENT_SCOPE)
endfunction()

set(problems "")

run_readelf(sections -S)
string(REGEX MATCH "\\.note\\.GNU-stack[^\n]*" stack_line "${sections}")
if(stack_line STREQUAL "")
  list(APPEND problems "no .note.GNU-stack section: linking it would make the stack executable")
else()
  # [Nr] Name Type Address Off Size ES Flg Lk Inf Al: the flags follow the entry size.
  string(REGEX MATCH "PROGBITS +[0-9a-f]+ +[0-9a-f]+ +[0-9a-f]+ +[0-9a-f]+ +([A-Za-z]*) "
         flags_match "${stack_line}")
  if(CMAKE_MATCH_1 MATCHES "X")
    list(APPEND problems ".note.GNU-stack is marked executable: ${stack_line}")
  endif()
  message(STATUS "found: ${stack_line}")
endif()

string(REPLACE "|" ";" features "${FEATURES}")
run_readelf(notes -n)
string(REGEX MATCH "${FEATURE_LIST} feature: [^\n]*" feature_line "${notes}")
if(FEATURE_LIST STREQUAL "none")
  # An ISA without a GNU property note for its control-flow protection (riscv64 in
  # binutils 2.40): the stack note and the symbols are checked.
elseif(feature_line STREQUAL "")
  list(APPEND problems "no GNU property note with an ${FEATURE_LIST} feature list (${features})")
else()
  message(STATUS "found: ${feature_line}")
  foreach(feature IN LISTS features)
    if(NOT feature_line MATCHES "[ ,]${feature}(,|$)")
      list(APPEND problems "the GNU property note lacks ${feature}: ${feature_line}")
    endif()
  endforeach()
endif()

if(EXPECT_MISSING_NOTES)
  list(LENGTH problems count)
  message(STATUS "negative control, problems found: ${problems}")
  if(count LESS 2)
    message(FATAL_ERROR "the object without notes passed the note checks: the checks are broken")
  endif()
  message(STATUS "ok: the object without notes fails both note checks")
  return()
endif()

if(DEFINED MANIFEST)
  include("${CMAKE_CURRENT_LIST_DIR}/manifest_entries.cmake")
  run_readelf(symbols -s)
  get_filename_component(object_name "${OBJECT}" NAME)
  sponge_manifest_entries("${MANIFEST}" "${object_name}" entries)
  set(checked 0)
  foreach(symbol IN LISTS entries)
    if(NOT symbols MATCHES "FUNC +GLOBAL +HIDDEN +[0-9]+ ${symbol}\n")
      list(APPEND problems "entry ${symbol} is not a hidden global FUNC symbol")
    endif()
    math(EXPR checked "${checked} + 1")
  endforeach()
  if(checked EQUAL 0)
    list(APPEND problems "the manifest lists no entries for ${object_name}")
  endif()
  message(STATUS "checked ${checked} entry symbols")
endif()

if(problems)
  list(JOIN problems "\n  " text)
  message(FATAL_ERROR "${OBJECT}:\n  ${text}")
endif()
message(STATUS "ok: ${OBJECT} has .note.GNU-stack, the ${FEATURE_LIST} property ${features}, "
               "and its entries")
