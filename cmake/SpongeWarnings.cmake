# Our own C and C++ code builds with every common warning, and warnings are errors.
function(sponge_warnings target)
  target_compile_options(${target} PRIVATE
    $<$<COMPILE_LANGUAGE:C,CXX>:-Wall -Wextra -Werror>)
endfunction()
