// The generated amd64 Ascon-p[320] kernel (generated/ascon_p320_amd64_bmi2.S) as an entry of
// the Ascon dispatcher: its entries and CPU features come from generated/sponge_kernels.h.
#include "ascon_kernel.hpp"
#include "kernel.hpp"  // cpu_has_features, sponge_kernels.h

namespace sponge::detail {
namespace {

constexpr sponge_cpu_feature kFeatures[] = {SPONGE_KERNEL_ASCON_AMD64_BMI2_CPU_FEATURES};
constexpr AsconEntry kEntries[] = {SPONGE_KERNEL_ASCON_AMD64_BMI2_ENTRIES(SPONGE_ASCON_ENTRY)};

bool cpu_supports() noexcept {
  return cpu_has_features(kFeatures);
}

}  // namespace

extern const AsconKernel kAsconAmd64Bmi2Kernel =
    make_ascon_kernel(SPONGE_KERNEL_ASCON_AMD64_BMI2_NAME, cpu_supports, kEntries);

}  // namespace sponge::detail
