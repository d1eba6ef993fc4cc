// Which Keccak kernel an arm64 machine gets by default: the SHA3-extension kernel or the
// scalar one, decided per core from MIDR_EL1.
//
// Counting instructions does not decide it: the SHA3 round is 69 instructions on the
// vector pipes that implement EOR3, RAX1, XAR and BCAX, the scalar round about twice as
// many on the integer pipes, and cores differ in how many of each they have. The table
// (arm64_core_choice.cpp) names the cores where public measurements show the SHA3 path
// ahead; every other core, known or not, gets the scalar kernel. A machine with cores of
// more than one kind (big.LITTLE) gets the kernel every one of its cores is rated for,
// else scalar: a thread may run on any core, and the scalar kernel is never the slow
// choice by much, where the SHA3 one is (about 2x on Neoverse V2 and Cortex-X2).
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string_view>

namespace sponge::detail {

enum class Arm64Os { on_linux, on_macos, other };

inline constexpr std::string_view kArm64ScalarKernelName = "arm64-scalar";
inline constexpr std::string_view kArm64Sha3KernelName = "arm64-sha3";

// One row of the table: MIDR_EL1's implementer (bits 31:24) and part number (bits 15:4).
struct Arm64CoreRating {
  std::uint32_t implementer;
  std::uint32_t part;  // kAnyPart: every part of the implementer
  std::string_view core;
  std::string_view kernel;  // kArm64Sha3KernelName or kArm64ScalarKernelName
  std::string_view source;  // the public measurement or decision this row follows
};
inline constexpr std::uint32_t kAnyPart = 0xffffffff;

std::span<const Arm64CoreRating> arm64_core_table() noexcept;

// The pure decision: the MIDR_EL1 value of each core (empty when the OS does not tell),
// whether the CPU has the SHA3 extension (HWCAP_SHA3 / hw.optional.armv8_2_sha3), and the
// OS. Returns kArm64Sha3KernelName or kArm64ScalarKernelName.
std::string_view choose_arm64_keccak_kernel(std::span<const std::uint64_t> midrs, bool has_sha3,
                                            Arm64Os os) noexcept;

// This machine's answer (arm64 only; elsewhere the scalar name, never used): Linux reads
// /sys/devices/system/cpu/cpu*/regs/identification/midr_el1, else MRS MIDR_EL1 when the
// kernel emulates it (HWCAP_CPUID); macOS runs on Apple cores only.
std::string_view arm64_keccak_kernel_for_this_machine(bool has_sha3) noexcept;

}  // namespace sponge::detail
