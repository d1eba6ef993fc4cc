// The generated arm64 scalar kernel (generated/keccakf1600_arm64_scalar.S) as a dispatcher
// entry: base ARMv8-A instructions only, so every arm64 CPU runs it. Whether it or the SHA3
// kernel is the default is decided per core (arm64_core_choice.cpp).
#include "kernel.hpp"

namespace sponge::detail {
namespace {

constexpr KeccakEntry kEntries[] = {SPONGE_KERNEL_ARM64_SCALAR_ENTRIES(SPONGE_KECCAK_ENTRY)};

// The generator declares no CPU feature for this kernel: the list expands to nothing.
constexpr sponge_cpu_feature kFeatures[] = {SPONGE_KERNEL_ARM64_SCALAR_CPU_FEATURES{}};
static_assert(std::size(kFeatures) == 1 && kFeatures[0].name == nullptr,
              "arm64-scalar needs no CPU feature; a declared one must be checked here");

bool cpu_supports() noexcept {
  return true;
}

}  // namespace

extern const KeccakKernel kArm64ScalarKernel =
    make_keccak_kernel(SPONGE_KERNEL_ARM64_SCALAR_NAME, cpu_supports, kEntries);

}  // namespace sponge::detail
