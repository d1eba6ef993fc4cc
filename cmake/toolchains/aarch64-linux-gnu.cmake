# Cross build for 64-bit Arm Linux with Debian's g++-aarch64-linux-gnu; tests run under
# qemu-user (CMAKE_CROSSCOMPILING_EMULATOR, so ctest starts every test program through it).
# Pick the emulated CPU per ctest run with QEMU_CPU (qemu-user reads it):
#   QEMU_CPU=max         has the SHA3 extension -> the arm64-sha3 kernel
#   QEMU_CPU=cortex-a72  has none              -> the portable kernel
# The build itself does not depend on the emulated CPU: the kernel tests ask each kernel's
# cpu_supports() at run time and compare with what the caller expects
# (SPONGE_EXPECTED_DEFAULT_KERNEL, SPONGE_EXPECTED_RUNNABLE_KERNELS; see scripts/test).
#
# Libraries: the cross toolchain's own sysroot (/usr/aarch64-linux-gnu) and Debian's
# multiarch packages (libssl-dev:arm64, libcrypto++-dev:arm64 in /usr/lib/aarch64-linux-gnu,
# headers in /usr/include), plus architecture-independent CMake packages (doctest).
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR aarch64)
set(CMAKE_C_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER aarch64-linux-gnu-g++)
set(CMAKE_ASM_COMPILER aarch64-linux-gnu-gcc)
set(CMAKE_LIBRARY_ARCHITECTURE aarch64-linux-gnu)
set(CMAKE_FIND_ROOT_PATH /usr/aarch64-linux-gnu /)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
# pkg-config must read the arm64 .pc files only, never the host's.
set(ENV{PKG_CONFIG_LIBDIR} /usr/lib/aarch64-linux-gnu/pkgconfig:/usr/share/pkgconfig)
set(ENV{PKG_CONFIG_PATH} "")
set(CMAKE_CROSSCOMPILING_EMULATOR qemu-aarch64;-L;/usr/aarch64-linux-gnu)
