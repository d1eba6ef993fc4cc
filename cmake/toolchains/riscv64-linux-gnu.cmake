# Cross build for 64-bit RISC-V Linux (RV64GC, lp64d) with Debian's g++-riscv64-linux-gnu;
# tests run under qemu-user (CMAKE_CROSSCOMPILING_EMULATOR, so ctest starts every test
# program through it). Pick the emulated CPU per ctest run with QEMU_CPU (qemu-user reads it):
#   QEMU_CPU=rv64,zbb=true   has Zbb (rori, andn)  -> a Zbb kernel may run
#   QEMU_CPU=rv64,zbb=false  has no Zbb            -> a Zbb instruction raises SIGILL
# (qemu-user 7.2's plain rv64 has Zba, Zbb and Zbs: a Zbb instruction runs there.)
# The build itself does not depend on the emulated CPU: the kernel tests ask each kernel's
# cpu_supports() at run time and compare with what the caller expects
# (SPONGE_EXPECTED_DEFAULT_KERNEL, SPONGE_EXPECTED_RUNNABLE_KERNELS; see scripts/test).
#
# Libraries: the cross toolchain's own sysroot (/usr/riscv64-linux-gnu) and architecture-
# independent CMake packages (doctest). Debian 12 has no riscv64 multiarch packages of
# OpenSSL or Crypto++, so configure with -DSPONGE_TEST_ORACLES=OFF: the kernels are compared
# with the portable code and the known answers instead (docs/testing.md).
set(CMAKE_SYSTEM_NAME Linux)
set(CMAKE_SYSTEM_PROCESSOR riscv64)
set(CMAKE_C_COMPILER riscv64-linux-gnu-gcc)
set(CMAKE_CXX_COMPILER riscv64-linux-gnu-g++)
set(CMAKE_ASM_COMPILER riscv64-linux-gnu-gcc)
set(CMAKE_LIBRARY_ARCHITECTURE riscv64-linux-gnu)
set(CMAKE_FIND_ROOT_PATH /usr/riscv64-linux-gnu /)
set(CMAKE_FIND_ROOT_PATH_MODE_PROGRAM NEVER)
set(CMAKE_FIND_ROOT_PATH_MODE_LIBRARY ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_INCLUDE ONLY)
set(CMAKE_FIND_ROOT_PATH_MODE_PACKAGE ONLY)
# pkg-config must read riscv64 .pc files only, never the host's.
set(ENV{PKG_CONFIG_LIBDIR} /usr/lib/riscv64-linux-gnu/pkgconfig:/usr/share/pkgconfig)
set(ENV{PKG_CONFIG_PATH} "")
set(CMAKE_CROSSCOMPILING_EMULATOR qemu-riscv64;-L;/usr/riscv64-linux-gnu)
