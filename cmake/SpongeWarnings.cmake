# Our own C and C++ code builds with every common warning. Warnings are errors only when
# SPONGE_WERROR is on: a developer setting (scripts/test turns it on), off for users, whose
# newer or older compilers may warn about things ours do not.
function(sponge_warnings target)
  target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:C,CXX>:-Wall -Wextra>)
  if(SPONGE_WERROR)
    target_compile_options(${target} PRIVATE $<$<COMPILE_LANGUAGE:C,CXX>:-Werror>)
  endif()
endfunction()
