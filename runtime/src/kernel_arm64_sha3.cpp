// The generated arm64 SHA3 kernel (generated/keccakf1600_arm64_sha3.S) as a dispatcher entry.
#include "kernel.hpp"

#if defined(__APPLE__)
#include <sys/sysctl.h>
#elif defined(__linux__)
#include <asm/hwcap.h>
#include <sys/auxv.h>
#endif

extern "C" {
void sponge_keccakf1600_arm64_sha3(std::uint64_t* state) noexcept;
void sponge_keccakf1600_arm64_sha3_absorb72(std::uint64_t* state, const std::uint8_t*) noexcept;
void sponge_keccakf1600_arm64_sha3_absorb104(std::uint64_t* state, const std::uint8_t*) noexcept;
void sponge_keccakf1600_arm64_sha3_absorb136(std::uint64_t* state, const std::uint8_t*) noexcept;
void sponge_keccakf1600_arm64_sha3_absorb144(std::uint64_t* state, const std::uint8_t*) noexcept;
void sponge_keccakf1600_arm64_sha3_absorb168(std::uint64_t* state, const std::uint8_t*) noexcept;
}

namespace sponge::detail {
namespace {

// The ARMv8.2 SHA3 extension (EOR3, RAX1, XAR, BCAX), as the OS reports it.
bool cpu_has_sha3() noexcept {
#if defined(__APPLE__)
  int has_sha3 = 0;
  std::size_t size = sizeof has_sha3;
  if (sysctlbyname("hw.optional.armv8_2_sha3", &has_sha3, &size, nullptr, 0) != 0) return false;
  return has_sha3 != 0;
#elif defined(__linux__)
  return (getauxval(AT_HWCAP) & HWCAP_SHA3) != 0;
#else
  return false;
#endif
}

}  // namespace

extern const KeccakKernel kArm64Sha3Kernel = {
    "arm64-sha3",
    cpu_has_sha3,
    sponge_keccakf1600_arm64_sha3,
    {sponge_keccakf1600_arm64_sha3_absorb72, sponge_keccakf1600_arm64_sha3_absorb104,
     sponge_keccakf1600_arm64_sha3_absorb136, sponge_keccakf1600_arm64_sha3_absorb144,
     sponge_keccakf1600_arm64_sha3_absorb168},
    // Keccak-p[1600,12] on the portable code until the generated 12-round entries of this
    // kernel land (issue 10, part A); they replace these two lines.
    keccak_p1600_12_portable,
    {keccak_p1600_12_absorb136_portable, keccak_p1600_12_absorb168_portable},
};

}  // namespace sponge::detail
