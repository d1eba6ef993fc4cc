# The provider module exports OSSL_provider_init and nothing else: the library and the C++
# runtime it carries stay local, so they cannot clash with the host program's.
#   cmake -DNM=<nm> -DMODULE=<sponge.so> -P check_exports.cmake
execute_process(COMMAND ${NM} -D --defined-only ${MODULE} RESULT_VARIABLE result
                OUTPUT_VARIABLE symbols ERROR_VARIABLE error)
if(NOT result EQUAL 0)
  message(FATAL_ERROR "${NM} -D failed on ${MODULE}: ${error}")
endif()
string(REGEX MATCHALL "[^\n]+" lines "${symbols}")
set(exported "")
foreach(line IN LISTS lines)
  string(REGEX REPLACE "^[0-9a-fA-F]* *[A-Za-z] " "" name "${line}")
  list(APPEND exported "${name}")
endforeach()
if(NOT exported STREQUAL "OSSL_provider_init")
  message(FATAL_ERROR "${MODULE} exports [${exported}], expected only OSSL_provider_init")
endif()
message(STATUS "${MODULE} exports only OSSL_provider_init")
