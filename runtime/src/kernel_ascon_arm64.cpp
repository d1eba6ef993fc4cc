// The generated arm64 Ascon-p[320] kernel (generated/ascon_p320_arm64.S) as an entry of the
// Ascon dispatcher: base ARMv8-A instructions only, so every arm64 CPU runs it.
#include "ascon_kernel.hpp"
#include "kernel.hpp"  // sponge_kernels.h

namespace sponge::detail {
namespace {

constexpr AsconEntry kEntries[] = {SPONGE_KERNEL_ASCON_ARM64_ENTRIES(SPONGE_ASCON_ENTRY)};

// The generator declares no CPU feature for this kernel: the list expands to nothing.
constexpr sponge_cpu_feature kFeatures[] = {SPONGE_KERNEL_ASCON_ARM64_CPU_FEATURES{}};
static_assert(std::size(kFeatures) == 1 && kFeatures[0].name == nullptr,
              "ascon-arm64 needs no CPU feature; a declared one must be checked here");

bool cpu_supports() noexcept {
  return true;
}

}  // namespace

extern const AsconKernel kAsconArm64Kernel =
    make_ascon_kernel(SPONGE_KERNEL_ASCON_ARM64_NAME, cpu_supports, kEntries);

}  // namespace sponge::detail
