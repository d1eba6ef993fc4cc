// Whether a RISC-V CPU has an extension a kernel needs (Zbb, V, ...), on Linux.
//
// The kernel's riscv_hwprobe system call (Linux 6.4+) reports the extensions every CPU of the
// process has, as bits of the key RISCV_HWPROBE_KEY_IMA_EXT_0; when it answers, its answer is
// final. Older kernels (and qemu-user 7.2, Debian 12's) have no such call: AT_HWCAP carries
// single-letter extensions only (no Zbb), and /proc/cpuinfo is the host's under qemu-user. There
// nothing is guessed and no instruction is tried: an extension counts as present only when the
// user names it in SPONGE_RISCV_EXTENSIONS (comma-separated, as the kernels' features name
// them, e.g. "zbb"), the way one states the CPU under an emulator or an old kernel.
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

// Whether `name` is one of the comma-separated names of `list` (null: none). Exact, case-
// sensitive matches of whole names; empty names are ignored.
bool riscv_extension_named(const char* list, std::string_view name) noexcept;

// The pure decision for one extension: `hwprobe_ima_ext_0` is riscv_hwprobe's answer for
// RISCV_HWPROBE_KEY_IMA_EXT_0 (nullopt: the kernel has no riscv_hwprobe), `mask` the bits the
// extension has there (0: not reported that way), `name` its name and `named_by_user` the
// value of SPONGE_RISCV_EXTENSIONS (null when unset).
bool riscv_extension_present(std::optional<std::uint64_t> hwprobe_ima_ext_0, std::uint64_t mask,
                             std::string_view name, const char* named_by_user) noexcept;

// The vector length a feature named "zvl<bits>b" asks for (VLEN >= bits, as the RISC-V
// extension names say it), or nullopt for any other name.
std::optional<unsigned> riscv_vector_bits_named(std::string_view name) noexcept;

// The pure decision for a "zvl<bits>b" feature: V present (as riscv_extension_present decides
// it for "v") and the CPU's VLEN, read by `read_vlen` only then (reading the vlenb CSR without
// V traps), at least `bits`.
bool riscv_vector_length_present(std::optional<std::uint64_t> hwprobe_ima_ext_0, unsigned bits,
                                 const char* named_by_user, unsigned (*read_vlen)()) noexcept;

// This CPU's VLEN in bits, from the vlenb CSR; only to be called where V is present, and 0
// on every target other than riscv64.
unsigned riscv_vlen_bits() noexcept;

// This process's riscv_hwprobe answer for RISCV_HWPROBE_KEY_IMA_EXT_0 over all its CPUs;
// nullopt where the system call fails (ENOSYS before Linux 6.4) or does not know the key, and
// on every target other than Linux riscv64.
std::optional<std::uint64_t> riscv_hwprobe_ima_ext_0() noexcept;

}  // namespace sponge::detail
