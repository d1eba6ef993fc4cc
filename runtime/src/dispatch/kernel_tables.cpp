// The kernel tables of the three families, best first: every generated kernel of this target's
// ISA that generated/sponge_kernels.h lists for a table (SPONGE_<TABLE>_KERNELS_<ISA>, in the
// generator's registry order), then the family's C++ members. runtime/CMakeLists.txt links the
// objects of the same kernels (the files generated/manifest.json lists for the ISA), so a
// kernel the generator adds joins its table, its CPU check and the build with no line here.
#include <cstddef>
#include <span>

#include "ascon/ascon_kernel.hpp"
#include "batch/batch_kernel.hpp"
#include "keccak/keccak_kernel.hpp"

#if defined(__x86_64__) || defined(_M_X64)
#define SPONGE_TARGET_KECCAK_KERNELS SPONGE_KECCAK_KERNELS_AMD64
#define SPONGE_TARGET_KECCAK_BATCH_KERNELS SPONGE_KECCAK_BATCH_KERNELS_AMD64
#define SPONGE_TARGET_ASCON_KERNELS SPONGE_ASCON_KERNELS_AMD64
#elif defined(__aarch64__) || defined(_M_ARM64)
#define SPONGE_TARGET_KECCAK_KERNELS SPONGE_KECCAK_KERNELS_ARM64
#define SPONGE_TARGET_KECCAK_BATCH_KERNELS SPONGE_KECCAK_BATCH_KERNELS_ARM64
#define SPONGE_TARGET_ASCON_KERNELS SPONGE_ASCON_KERNELS_ARM64
#elif defined(__riscv) && __riscv_xlen == 64 && defined(SPONGE_KECCAK_KERNELS_RISCV64)
#define SPONGE_TARGET_KECCAK_KERNELS SPONGE_KECCAK_KERNELS_RISCV64
#define SPONGE_TARGET_KECCAK_BATCH_KERNELS SPONGE_KECCAK_BATCH_KERNELS_RISCV64
#define SPONGE_TARGET_ASCON_KERNELS SPONGE_ASCON_KERNELS_RISCV64
#else  // no generated kernel: the C++ members only
#define SPONGE_TARGET_KECCAK_KERNELS(X)
#define SPONGE_TARGET_KECCAK_BATCH_KERNELS(X)
#define SPONGE_TARGET_ASCON_KERNELS(X)
#endif

namespace sponge::detail {

extern const KeccakKernel kPortableKernel;
extern const KeccakBatchKernel kPortableX4BatchKernel;
extern const KeccakBatchKernel kSingleBatchKernel;
extern const AsconKernel kAsconPortableKernel;

namespace {

// A kernel's CPU check over its declared features. The generated list ends each feature with a
// comma, so the array closes with an empty element that ends it and keeps a kernel without
// features (arm64-scalar, ascon-arm64) well-formed: that element is not a feature.
template <const auto& features_and_end>
bool cpu_supports() noexcept {
  return cpu_has_features(std::span(features_and_end).first(std::size(features_and_end) - 1));
}

// One kernel's features, entries and table, the table made by `make_table` from its name, its
// CPU check, the arguments after KERNEL and the entries.
#define SPONGE_DEFINE_KERNEL(KERNEL, Entry, ENTRY_FORM, make_table, ...)                          \
  constexpr sponge_cpu_feature k##KERNEL##Features[] = {SPONGE_KERNEL_##KERNEL##_CPU_FEATURES{}}; \
  constexpr Entry k##KERNEL##Entries[] = {SPONGE_KERNEL_##KERNEL##_ENTRIES(ENTRY_FORM)};          \
  const auto k##KERNEL##Kernel =                                                                  \
      make_table(SPONGE_KERNEL_##KERNEL##_NAME, cpu_supports<k##KERNEL##Features>,                \
                 __VA_ARGS__ k##KERNEL##Entries);

#define SPONGE_DEFINE_KECCAK_KERNEL(KERNEL, STATES) \
  static_assert(STATES == 1);                       \
  SPONGE_DEFINE_KERNEL(KERNEL, KeccakEntry, SPONGE_KECCAK_ENTRY, make_keccak_kernel, )
#define SPONGE_DEFINE_KECCAK_BATCH_KERNEL(KERNEL, STATES)                                          \
  SPONGE_DEFINE_KERNEL(KERNEL, KeccakEntry, SPONGE_KECCAK_ENTRY, make_keccak_batch_kernel, STATES, \
                       /*chosen_by_default=*/true, )
#define SPONGE_DEFINE_ASCON_KERNEL(KERNEL, STATES) \
  static_assert(STATES == 1);                      \
  SPONGE_DEFINE_KERNEL(KERNEL, AsconEntry, SPONGE_ASCON_ENTRY, make_ascon_kernel, )

SPONGE_TARGET_KECCAK_KERNELS(SPONGE_DEFINE_KECCAK_KERNEL)
SPONGE_TARGET_KECCAK_BATCH_KERNELS(SPONGE_DEFINE_KECCAK_BATCH_KERNEL)
SPONGE_TARGET_ASCON_KERNELS(SPONGE_DEFINE_ASCON_KERNEL)

#define SPONGE_KERNEL_ADDRESS(KERNEL, STATES) &k##KERNEL##Kernel,

// On arm64 the SHA3 kernel comes first but is the default only on the cores
// arm64_core_choice.cpp rates for it (preferred_keccak_kernel).
const KeccakKernel* const kKeccakKernels[] = {
    SPONGE_TARGET_KECCAK_KERNELS(SPONGE_KERNEL_ADDRESS) & kPortableKernel,
};

// portable-x4 is chosen only by name; single (one message at a time on the active one-state
// kernel) is always runnable and the default where this CPU runs no multi-state kernel.
const KeccakBatchKernel* const kBatchKernels[] = {
    SPONGE_TARGET_KECCAK_BATCH_KERNELS(SPONGE_KERNEL_ADDRESS) & kPortableX4BatchKernel,
    &kSingleBatchKernel,
};

const AsconKernel* const kAsconKernels[] = {
    SPONGE_TARGET_ASCON_KERNELS(SPONGE_KERNEL_ADDRESS) & kAsconPortableKernel,
};

}  // namespace

std::span<const KeccakKernel* const> compiled_kernels() noexcept {
  return kKeccakKernels;
}

std::span<const KeccakBatchKernel* const> compiled_batch_kernels() noexcept {
  return kBatchKernels;
}

std::span<const AsconKernel* const> ascon_compiled_kernels() noexcept {
  return kAsconKernels;
}

}  // namespace sponge::detail
