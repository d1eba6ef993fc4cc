// The generated amd64 BMI2 kernel (generated/keccakf1600_amd64_bmi2.S) as a dispatcher
// entry: its entries and CPU features come from generated/sponge_kernels.h.
#include "kernel.hpp"

namespace sponge::detail {
namespace {

constexpr sponge_cpu_feature kFeatures[] = {SPONGE_KERNEL_AMD64_BMI2_CPU_FEATURES};
constexpr KeccakEntry kEntries[] = {SPONGE_KERNEL_AMD64_BMI2_ENTRIES(SPONGE_KECCAK_ENTRY)};

bool cpu_supports() noexcept {
  return cpu_has_features(kFeatures);
}

}  // namespace

extern const KeccakKernel kAmd64Bmi2Kernel =
    make_keccak_kernel(SPONGE_KERNEL_AMD64_BMI2_NAME, cpu_supports, kEntries);

}  // namespace sponge::detail
