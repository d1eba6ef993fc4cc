# Cross build for 64-bit Windows with Debian's mingw-w64 (g++-mingw-w64-x86-64, the posix
# threading flavour, which has std::thread and std::mutex); tests run under Wine
# (CMAKE_CROSSCOMPILING_EMULATOR, so ctest starts every test program through wine64).
#
# The programs link libgcc, libstdc++ and winpthread statically, so Wine needs no mingw DLLs
# on its path and a consumer's .exe runs by itself.
set(CMAKE_SYSTEM_NAME Windows)
set(CMAKE_SYSTEM_PROCESSOR x86_64)
set(CMAKE_C_COMPILER x86_64-w64-mingw32-gcc-posix)
set(CMAKE_CXX_COMPILER x86_64-w64-mingw32-g++-posix)
set(CMAKE_ASM_COMPILER x86_64-w64-mingw32-gcc-posix)
set(CMAKE_RC_COMPILER x86_64-w64-mingw32-windres)
# Appended, so a consumer adds its own staging prefix with -DCMAKE_FIND_ROOT_PATH=<prefix>
# (with -DCMAKE_PREFIX_PATH=<prefix>) and find_package(sponge) finds an installed libsponge.
list(APPEND CMAKE_FIND_ROOT_PATH /usr/x86_64-w64-mingw32)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
set(CMAKE_EXE_LINKER_FLAGS_INIT "-static")
set(ENV{PKG_CONFIG_LIBDIR} /usr/x86_64-w64-mingw32/lib/pkgconfig)
set(ENV{PKG_CONFIG_PATH} "")
# Debian puts wine64 outside PATH (/usr/lib/wine); WINEDEBUG=-all keeps its fixme lines out
# of the test logs.
find_program(SPONGE_WINE64 NAMES wine64 PATHS /usr/lib/wine NO_CMAKE_FIND_ROOT_PATH REQUIRED)
set(CMAKE_CROSSCOMPILING_EMULATOR ${CMAKE_COMMAND};-E;env;WINEDEBUG=-all;${SPONGE_WINE64})
