// The generated arm64 SHA3 two-state kernel (generated/keccakf1600_arm64_sha3_x2.S) as a
// batch kernel: its entries (lanes 2) and CPU features come from generated/sponge_kernels.h.
// runtime/CMakeLists.txt compiles this file and sets SPONGE_HAVE_ARM64_SHA3_X2 where it links
// the kernel's object.
#include "batch_kernel.hpp"

#if SPONGE_HAVE_ARM64_SHA3_X2

namespace sponge::detail {
namespace {

constexpr sponge_cpu_feature kFeatures[] = {SPONGE_KERNEL_ARM64_SHA3_X2_CPU_FEATURES};
constexpr KeccakEntry kEntries[] = {SPONGE_KERNEL_ARM64_SHA3_X2_ENTRIES(SPONGE_KECCAK_ENTRY)};

bool cpu_supports() noexcept {
  return cpu_has_features(kFeatures);
}

}  // namespace

extern const KeccakBatchKernel kArm64Sha3X2BatchKernel =
    make_keccak_batch_kernel(SPONGE_KERNEL_ARM64_SHA3_X2_NAME, cpu_supports, 2, true, kEntries);

}  // namespace sponge::detail

#endif  // SPONGE_HAVE_ARM64_SHA3_X2
