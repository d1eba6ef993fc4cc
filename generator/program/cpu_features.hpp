// The CPU features kernels need, as plain data every pass can read: the kernel specs
// declare them (kernels/registry.cpp), the writers carry them to the runtime, the
// CPU-feature check and the JIT self-check ask about them.
#pragma once

#include <cstdint>
#include <string_view>

#include "program/program.hpp"

namespace spongegen {

// A CPU feature a kernel's instructions need, with every way of asking for it. This is
// the one declaration: the generated C header carries it to the runtime's CPU check, the
// manifest carries its /proc/cpuinfo name to CMake's runnable-kernels check
// (cmake/SpongeRunnableKernels.cmake), and the JIT self-check asks the host with it.
struct CpuFeature {
  std::string_view name;  // as /proc/cpuinfo lists it ("flags" on x86, "Features" on arm64)
  Isa isa;
  // amd64: CPUID leaf, sub-leaf, output register (0 eax, 1 ebx, 2 ecx, 3 edx) and bit.
  unsigned cpuid_leaf = 0, cpuid_subleaf = 0, cpuid_register = 0, cpuid_bit = 0;
  // arm64: the bit of Linux's AT_HWCAP and the macOS sysctl that report it.
  unsigned linux_hwcap_bit = 0;
  std::string_view macos_sysctl;
  // amd64 vector features: the XCR0 bits the OS must have enabled (XGETBV, after CPUID's
  // OSXSAVE) so that it saves and restores the registers across context switches; CPUID
  // alone reports what the silicon has, not what the OS preserves. 0 for none.
  unsigned xcr0_mask = 0;
  // riscv64: the bits of Linux's riscv_hwprobe key RISCV_HWPROBE_KEY_IMA_EXT_0 that report
  // it (extensions such as Zbb are in no AT_HWCAP bit). 0 for none.
  std::uint64_t riscv_hwprobe_ima_ext_0 = 0;
};

inline constexpr CpuFeature kBmi1{"bmi1", Isa::amd64, 7, 0, 1, 3, 0, {}};
inline constexpr CpuFeature kBmi2{"bmi2", Isa::amd64, 7, 0, 1, 8, 0, {}};
// HWCAP_SHA3 is bit 17 of AT_HWCAP on arm64 Linux (asm/hwcap.h).
inline constexpr CpuFeature kArmSha3{"sha3", Isa::arm64, 0,  0,
                                     0,      0,          17, "hw.optional.armv8_2_sha3"};

// Zbb (riscv64): RISCV_HWPROBE_EXT_ZBB is bit 4 of RISCV_HWPROBE_KEY_IMA_EXT_0
// (asm/hwprobe.h, Linux 6.4).
inline constexpr CpuFeature kZbb{"zbb", Isa::riscv64, 0, 0, 0, 0, 0, {}, 0, 1u << 4};
// V (RVV 1.0, riscv64): RISCV_HWPROBE_IMA_V is bit 2 of RISCV_HWPROBE_KEY_IMA_EXT_0.
inline constexpr CpuFeature kRiscvV{"v", Isa::riscv64, 0, 0, 0, 0, 0, {}, 0, 1u << 2};
// VLEN of at least 256 or 512 bits (the RISC-V names Zvl256b, Zvl512b): in no riscv_hwprobe
// bit; the runtime reads the vlenb CSR once V is present (runtime/src/dispatch).
inline constexpr CpuFeature kZvl256b{"zvl256b", Isa::riscv64, 0, 0, 0, 0, 0, {}, 0, 0};
inline constexpr CpuFeature kZvl512b{"zvl512b", Isa::riscv64, 0, 0, 0, 0, 0, {}, 0, 0};

// WebAssembly's fixed-width SIMD (the v128 rows), standard since WebAssembly 2.0: no CPU
// reports it; the engine does, by validating a module that uses it (WebAssembly.validate).
inline constexpr CpuFeature kWasmSimd128{"simd128", Isa::wasm32, 0, 0, 0, 0, 0, {}, 0, 0};

// XCR0 bits 1 and 2: the OS saves the SSE (xmm) and AVX (upper ymm) state.
inline constexpr unsigned kXcr0SseAvx = 0x6;
inline constexpr CpuFeature kAvx{"avx", Isa::amd64, 1, 0, 2, 28, 0, {}, kXcr0SseAvx};
inline constexpr CpuFeature kAvx2{"avx2", Isa::amd64, 7, 0, 1, 5, 0, {}, kXcr0SseAvx};
// XCR0 bits 5, 6 and 7 besides 1 and 2: the OS also saves the opmask registers, the upper
// halves of zmm0-zmm15 and zmm16-zmm31 (all three, or AVX-512 state is lost on a switch).
inline constexpr unsigned kXcr0Avx512 = 0xe6;
inline constexpr CpuFeature kAvx512f{"avx512f", Isa::amd64, 7, 0, 1, 16, 0, {}, kXcr0Avx512};
// AVX-512VL: the AVX-512 instructions on xmm and ymm registers (CPUID leaf 7 EBX bit 31).
inline constexpr CpuFeature kAvx512vl{"avx512vl", Isa::amd64, 7, 0, 1, 31, 0, {}, kXcr0Avx512};

}  // namespace spongegen
