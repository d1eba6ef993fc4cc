#include "dispatch/arm64_core_choice.hpp"

#include <array>
#include <cstdio>

#if defined(__aarch64__) && defined(__linux__)
#include <sys/auxv.h>
#endif

namespace sponge::detail {
namespace {

constexpr std::uint32_t kArm = 0x41;
constexpr std::uint32_t kApple = 0x61;

// Sources:
//   [openssl]  OpenSSL crypto/armcap.c (3.2 and later): the SHA3-extension Keccak
//              (ARMV8_HAVE_SHA3_AND_WORTH_USING) is enabled only on the Apple M1 and M2
//              MIDR parts on Linux and on "Apple M1".."Apple M4" on macOS; on Neoverse V1,
//              N2 and V2 it uses EOR3 elsewhere but keeps the scalar Keccak.
//   [reports]  public benchmark reports collected when this table was made: the SHA3
//              path about 2x slower than a good scalar kernel on Neoverse V2 (AWS Graviton4) and
//              Cortex-X2 class cores, where the SHA3 instructions issue to a fraction of
//              the vector pipes; about 3.5 cycles/byte on Apple M1 with it.
constexpr Arm64CoreRating kTable[] = {
    {kApple, kAnyPart, "Apple (M1 and later; every core macOS runs on)", kArm64Sha3KernelName,
     "[openssl] allow-list, [reports] M1 figure"},
    {kArm, 0xd40, "Neoverse V1", kArm64ScalarKernelName, "[openssl] not on the allow-list"},
    {kArm, 0xd49, "Neoverse N2", kArm64ScalarKernelName, "[openssl] not on the allow-list"},
    {kArm, 0xd4f, "Neoverse V2 (AWS Graviton4)", kArm64ScalarKernelName,
     "[reports] about 2x slower with SHA3; [openssl]"},
    {kArm, 0xd48, "Cortex-X2", kArm64ScalarKernelName, "[reports] about 2x slower with SHA3"},
    {kArm, 0xd4e, "Cortex-X3", kArm64ScalarKernelName, "[reports] X2 class; [openssl]"},
    {kArm, 0xd47, "Cortex-A710", kArm64ScalarKernelName, "[openssl] not on the allow-list"},
    {kArm, 0xd46, "Cortex-A510", kArm64ScalarKernelName, "[openssl] not on the allow-list"},
};

std::string_view rate_core(std::uint64_t midr) noexcept {
  const auto implementer = static_cast<std::uint32_t>((midr >> 24) & 0xff);
  const auto part = static_cast<std::uint32_t>((midr >> 4) & 0xfff);
  for (const Arm64CoreRating& row : kTable) {
    if (row.implementer == implementer && (row.part == kAnyPart || row.part == part)) {
      return row.kernel;
    }
  }
  return kArm64ScalarKernelName;  // unknown: the kernel that is never far behind
}

}  // namespace

std::span<const Arm64CoreRating> arm64_core_table() noexcept {
  return kTable;
}

std::string_view choose_arm64_keccak_kernel(std::span<const std::uint64_t> midrs, bool has_sha3,
                                            Arm64Os os) noexcept {
  if (!has_sha3) return kArm64ScalarKernelName;
  if (os == Arm64Os::on_macos) return kArm64Sha3KernelName;  // Apple cores only
  if (midrs.empty()) return kArm64ScalarKernelName;          // the OS does not say which core
  for (const std::uint64_t midr : midrs) {
    if (rate_core(midr) != kArm64Sha3KernelName) return kArm64ScalarKernelName;
  }
  return kArm64Sha3KernelName;
}

#if defined(__aarch64__) && defined(__linux__)
namespace {

constexpr std::size_t kMaxCores = 1024;

// Every CPU's MIDR_EL1 from sysfs; stops at the first CPU number without the file.
std::size_t midrs_from_sysfs(std::array<std::uint64_t, kMaxCores>& out) noexcept {
  std::size_t count = 0;
  for (; count < out.size(); ++count) {
    char path[96];
    std::snprintf(path, sizeof path, "/sys/devices/system/cpu/cpu%zu/regs/identification/midr_el1",
                  count);
    std::FILE* file = std::fopen(path, "r");
    if (file == nullptr) break;
    unsigned long long value = 0;
    const bool read = std::fscanf(file, "%llx", &value) == 1;
    std::fclose(file);
    if (!read) break;
    out[count] = value;
  }
  return count;
}

}  // namespace

std::string_view arm64_keccak_kernel_for_this_machine(bool has_sha3) noexcept {
  static std::array<std::uint64_t, kMaxCores> midrs{};
  std::size_t count = midrs_from_sysfs(midrs);
  constexpr unsigned long kHwcapCpuid = 1ul << 11;  // asm/hwcap.h HWCAP_CPUID
  if (count == 0 && (getauxval(AT_HWCAP) & kHwcapCpuid) != 0) {
    std::uint64_t midr = 0;
    asm volatile("mrs %0, midr_el1" : "=r"(midr));  // emulated by the kernel for EL0
    midrs[0] = midr;
    count = 1;
  }
  return choose_arm64_keccak_kernel(std::span(midrs.data(), count), has_sha3, Arm64Os::on_linux);
}
#elif defined(__aarch64__) && defined(__APPLE__)
std::string_view arm64_keccak_kernel_for_this_machine(bool has_sha3) noexcept {
  return choose_arm64_keccak_kernel({}, has_sha3, Arm64Os::on_macos);
}
#else
std::string_view arm64_keccak_kernel_for_this_machine(bool has_sha3) noexcept {
  return choose_arm64_keccak_kernel({}, has_sha3, Arm64Os::other);
}
#endif

}  // namespace sponge::detail
