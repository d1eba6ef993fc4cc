// Whether a RISC-V CPU has an extension a kernel needs (Zbb, V, ...), on Linux.
//
// Four sources, in this order of trust; the first that has an answer for an extension decides:
// 1. The kernel's riscv_hwprobe system call (Linux 6.4+), which reports the extensions every CPU
//    of the process has as bits of the key RISCV_HWPROBE_KEY_IMA_EXT_0; where it answers, its
//    answer is final, whatever the other sources say.
// 2. SPONGE_RISCV_EXTENSIONS, where set (even empty): the comma-separated extensions the user
//    vouches for, as the kernels' features name them (e.g. "zbb,v"), the way one states the CPU
//    under an emulator or an old kernel. It replaces the two fallbacks below, in both
//    directions: an extension it leaves out is absent, and an empty value means none.
// 3. AT_HWCAP, for single-letter extensions only (bit 'x' - 'a'; V is bit 21): it says nothing
//    about Zbb. Linux sets V there only where it lets user space use the vector registers.
// 4. The `isa` line of /proc/cpuinfo ("rv64imafdcv_zicsr_zbb"), parsed strictly; it is the
//    host's under qemu-user 7.2 (no `isa` line on an x86 host), so there it says nothing.
// Nothing is guessed and no instruction is tried: an extension no source reports is absent.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace sponge::detail {

inline constexpr const char* kRiscvExtensionsVariable = "SPONGE_RISCV_EXTENSIONS";

// riscv_hwprobe's system call number and key (linux/arch/riscv/include/uapi/asm/hwprobe.h),
// spelled here because Debian 12's kernel headers predate them.
inline constexpr long kRiscvHwprobeSyscall = 258;
inline constexpr std::int64_t kRiscvHwprobeKeyImaExt0 = 4;
// RISCV_HWPROBE_IMA_V: the vector extension V (RVV 1.0).
inline constexpr std::uint64_t kRiscvHwprobeImaV = 1u << 2;

// What each source says, as the process found it (riscv_extension_sources) or as a test states
// it; the decision below is a pure function of it.
struct RiscvExtensionSources {
  // riscv_hwprobe's answer for RISCV_HWPROBE_KEY_IMA_EXT_0; nullopt: no riscv_hwprobe.
  std::optional<std::uint64_t> hwprobe_ima_ext_0 = std::nullopt;
  // SPONGE_RISCV_EXTENSIONS; null when unset.
  const char* named_by_user = nullptr;
  // getauxval(AT_HWCAP); 0 where the auxiliary vector has none (Linux always sets I).
  std::uint64_t at_hwcap = 0;
  // The `isa` line of /proc/cpuinfo; empty where there is none.
  std::string_view isa_string = {};
};

// Whether `name` is one of the comma-separated names of `list` (null: none). Exact, case-
// sensitive matches of whole names; empty names are ignored.
bool riscv_extension_named(const char* list, std::string_view name) noexcept;

// What an ISA string says of the extension `name`, or nullopt where the string is not one.
// Strict and lower-case: "rv64", then single letters starting with the base (i, e, or g, which
// stands for imafd_zicsr_zifencei and is expanded), then multi-letter names ([a-z][a-z0-9]*),
// each after an underscore, compared whole ("zbbx" is not "zbb"). Anything else (upper case,
// version numbers such as "i2p1", empty names, rv32) makes the whole string say nothing.
std::optional<bool> riscv_isa_string_has(std::string_view isa, std::string_view name) noexcept;

// The value of a /proc/cpuinfo line whose key is exactly "isa" (not "hart isa"), trimmed of
// the blanks around it; nullopt for any other line.
std::optional<std::string_view> riscv_cpuinfo_isa_value(std::string_view line) noexcept;

// The pure decision for one extension: `hwprobe_mask` is the bits it has in
// RISCV_HWPROBE_KEY_IMA_EXT_0 (0: not reported that way) and `name` its name, as the kernels'
// features and SPONGE_RISCV_EXTENSIONS spell it.
bool riscv_extension_present(const RiscvExtensionSources& sources, std::uint64_t hwprobe_mask,
                             std::string_view name) noexcept;

// The vector length a feature named "zvl<bits>b" asks for (VLEN >= bits, as the RISC-V
// extension names say it), or nullopt for any other name.
std::optional<unsigned> riscv_vector_bits_named(std::string_view name) noexcept;

// The pure decision for a "zvl<bits>b" feature: V present (as riscv_extension_present decides
// it for "v") and the CPU's VLEN, read by `read_vlen` only then (reading the vlenb CSR without
// V traps), at least `bits`.
bool riscv_vector_length_present(const RiscvExtensionSources& sources, unsigned bits,
                                 unsigned (*read_vlen)()) noexcept;

// This CPU's VLEN in bits, from the vlenb CSR; only to be called where V is present, and 0
// on every target other than riscv64.
unsigned riscv_vlen_bits() noexcept;

// This process's riscv_hwprobe answer for RISCV_HWPROBE_KEY_IMA_EXT_0 over all its CPUs;
// nullopt where the system call fails (ENOSYS before Linux 6.4) or does not know the key, and
// on every target other than Linux riscv64.
std::optional<std::uint64_t> riscv_hwprobe_ima_ext_0() noexcept;

// This process's four sources. On Linux riscv64 /proc/cpuinfo is read once per process (its
// `isa` line kept only where every hart shows the same one); on every other target only
// SPONGE_RISCV_EXTENSIONS is read.
RiscvExtensionSources riscv_extension_sources() noexcept;

}  // namespace sponge::detail
