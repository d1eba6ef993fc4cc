// What every kernel builder returns, and the list of kernels spongegen writes.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <string_view>
#include <vector>

#include "program/program.hpp"

namespace spongegen::kernels {

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
};

inline constexpr CpuFeature kBmi1{"bmi1", Isa::amd64, 7, 0, 1, 3, 0, {}};
inline constexpr CpuFeature kBmi2{"bmi2", Isa::amd64, 7, 0, 1, 8, 0, {}};
// HWCAP_SHA3 is bit 17 of AT_HWCAP on arm64 Linux (asm/hwcap.h).
inline constexpr CpuFeature kArmSha3{"sha3", Isa::arm64, 0,  0,
                                     0,      0,          17, "hw.optional.armv8_2_sha3"};

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

struct BuiltKernel {
  Program program;  // each function is one entry; its EntryShape says what it computes
};

// The arguments of one entry call, as its C signature (EntryShape::parameters) takes them:
// the state, then for absorb entries the input (one rate block for Keccak, block_count blocks
// for Ascon), for encrypt and decrypt entries the output too (which may be the input).
struct EntryCall {
  std::uint64_t* state = nullptr;
  const std::uint8_t* in = nullptr;
  std::uint8_t* out = nullptr;
  std::size_t block_count = 1;
  // Absorb entries of a multi-state kernel (EntryShape::lanes > 1): one block per state.
  const std::uint8_t* const* blocks = nullptr;
};

// The reference one entry call must agree with, run on the JIT self-check's copies.
using ReferenceCall = std::function<void(const EntryShape& shape, const EntryCall& call)>;

struct KernelSpec {
  std::string family;     // the permutation family: "keccak-p1600" or "ascon-p320"
  std::string name;       // as the runtime's dispatcher and SPONGE_KERNEL name it
  std::string file_name;  // in generated/
  Isa isa;
  std::vector<CpuFeature> cpu_features;  // all needed to run any entry
  ReferenceCall reference;
  std::function<BuiltKernel()> build;
};

// Every kernel spongegen generates, in output order.
const std::vector<KernelSpec>& all_kernels();

// Throws unless every instruction's CPU feature (its instruction table row) is one the
// spec declares: otherwise the runtime would call the kernel on a CPU that cannot run it.
void check_cpu_features(const KernelSpec& spec, const Program& program);

BuiltKernel build_keccak_amd64_bmi2();
BuiltKernel build_keccak_arm64_sha3();
BuiltKernel build_keccak_arm64_scalar();
BuiltKernel build_keccak_amd64_avx2_x4();
BuiltKernel build_keccak_amd64_avx512_x8();
BuiltKernel build_keccak_amd64_avx512_x4();
BuiltKernel build_keccak_arm64_sha3_x2();

// The portable Keccak-p[1600] reference for an entry of any round count and rate.
void keccak_reference_call(const EntryShape& shape, const EntryCall& call);
// The portable Ascon-p[320] entries of the runtime, by the entry's kind and rounds.
void ascon_reference_call(const EntryShape& shape, const EntryCall& call);

BuiltKernel build_ascon_amd64_bmi2();
BuiltKernel build_ascon_arm64();

}  // namespace spongegen::kernels
