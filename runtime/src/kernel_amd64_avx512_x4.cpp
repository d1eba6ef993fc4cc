// The generated amd64 AVX-512 four-state kernel (generated/keccakf1600_amd64_avx512_x4.S)
// as a batch kernel: its entries (lanes 4) and CPU features (AVX-512F and VL, with the XCR0
// bits of the opmask and zmm state) come from generated/sponge_kernels.h.
// runtime/CMakeLists.txt compiles this file and sets SPONGE_HAVE_AMD64_AVX512_X4 where it links the
// kernel's object.
#include "batch_kernel.hpp"

#if SPONGE_HAVE_AMD64_AVX512_X4

namespace sponge::detail {
namespace {

constexpr sponge_cpu_feature kFeatures[] = {SPONGE_KERNEL_AMD64_AVX512_X4_CPU_FEATURES};
constexpr KeccakEntry kEntries[] = {SPONGE_KERNEL_AMD64_AVX512_X4_ENTRIES(SPONGE_KECCAK_ENTRY)};

bool cpu_supports() noexcept {
  return cpu_has_features(kFeatures);
}

}  // namespace

extern const KeccakBatchKernel kAmd64Avx512X4BatchKernel =
    make_keccak_batch_kernel(SPONGE_KERNEL_AMD64_AVX512_X4_NAME, cpu_supports, 4, true, kEntries);

}  // namespace sponge::detail

#endif  // SPONGE_HAVE_AMD64_AVX512_X4
