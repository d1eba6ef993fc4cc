// The generated arm64 SHA3 kernel (generated/keccakf1600_arm64_sha3.S) as a dispatcher
// entry: its entries and CPU features come from generated/sponge_kernels.h.
#include "kernel.hpp"

#if defined(__linux__)
#include <asm/hwcap.h>
#endif

namespace sponge::detail {
namespace {

constexpr sponge_cpu_feature kFeatures[] = {SPONGE_KERNEL_ARM64_SHA3_CPU_FEATURES};
constexpr KeccakEntry kEntries[] = {SPONGE_KERNEL_ARM64_SHA3_ENTRIES(SPONGE_KECCAK_ENTRY)};

#if defined(__linux__) && defined(HWCAP_SHA3)
static_assert(std::size(kFeatures) == 1 && (1ul << kFeatures[0].linux_hwcap_bit) == HWCAP_SHA3,
              "the generator's SHA3 feature is the kernel headers' HWCAP_SHA3");
#endif

bool cpu_supports() noexcept {
  return cpu_has_features(kFeatures);
}

}  // namespace

extern const KeccakKernel kArm64Sha3Kernel =
    make_keccak_kernel(SPONGE_KERNEL_ARM64_SHA3_NAME, cpu_supports, kEntries);

}  // namespace sponge::detail
