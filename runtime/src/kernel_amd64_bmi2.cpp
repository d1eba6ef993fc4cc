// The generated amd64 BMI2 kernel (generated/keccakf1600_amd64_bmi2.S) as a dispatcher entry.
#include <cpuid.h>

#include "kernel.hpp"

extern "C" {
void sponge_keccakf1600_amd64_bmi2(std::uint64_t* state) noexcept;
void sponge_keccakf1600_amd64_bmi2_absorb72(std::uint64_t* state, const std::uint8_t*) noexcept;
void sponge_keccakf1600_amd64_bmi2_absorb104(std::uint64_t* state, const std::uint8_t*) noexcept;
void sponge_keccakf1600_amd64_bmi2_absorb136(std::uint64_t* state, const std::uint8_t*) noexcept;
void sponge_keccakf1600_amd64_bmi2_absorb144(std::uint64_t* state, const std::uint8_t*) noexcept;
void sponge_keccakf1600_amd64_bmi2_absorb168(std::uint64_t* state, const std::uint8_t*) noexcept;
}

namespace sponge::detail {
namespace {

// ANDN is BMI1 and RORX is BMI2: CPUID leaf 7, sub-leaf 0, EBX bits 3 and 8. Both only
// touch general-purpose registers, so no OS support (XSAVE) check is needed.
bool cpu_has_bmi1_bmi2() noexcept {
  unsigned eax = 0, ebx = 0, ecx = 0, edx = 0;
  if (!__get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx)) return false;
  constexpr unsigned kBmi1 = 1u << 3, kBmi2 = 1u << 8;
  return (ebx & kBmi1) != 0 && (ebx & kBmi2) != 0;
}

}  // namespace

extern const KeccakKernel kAmd64Bmi2Kernel = {
    "amd64-bmi2",
    cpu_has_bmi1_bmi2,
    sponge_keccakf1600_amd64_bmi2,
    {sponge_keccakf1600_amd64_bmi2_absorb72, sponge_keccakf1600_amd64_bmi2_absorb104,
     sponge_keccakf1600_amd64_bmi2_absorb136, sponge_keccakf1600_amd64_bmi2_absorb144,
     sponge_keccakf1600_amd64_bmi2_absorb168},
    // Keccak-p[1600,12] on the portable code until the generated 12-round entries of this
    // kernel land (issue 10, part A); they replace these two lines.
    keccak_p1600_12_portable,
    {keccak_p1600_12_absorb136_portable, keccak_p1600_12_absorb168_portable},
};

}  // namespace sponge::detail
