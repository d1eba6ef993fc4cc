// Asks the CPU (or the OS, where only it knows) for the features a generated kernel
// declares (generated/sponge_kernels.h). One reading of the declaration for every kernel,
// so a new kernel brings data, not code.
#include <span>

#include "dispatch/riscv_extensions.hpp"
#include "dispatch/x86_xcr0.hpp"
#include "keccak/keccak_kernel.hpp"

#if defined(__x86_64__) || defined(__i386__)
#include <cpuid.h>
#elif defined(__APPLE__)
#include <sys/sysctl.h>
#elif defined(__linux__) && defined(__aarch64__)
#include <sys/auxv.h>
#endif

namespace sponge::detail {
namespace {

bool cpu_has_feature([[maybe_unused]] const sponge_cpu_feature& feature) noexcept {
#if defined(__x86_64__) || defined(__i386__)
  // The CPUID bit says the silicon has the feature; for vector registers the OS must also
  // save them across context switches (xcr0_mask, read with XGETBV).
  unsigned registers[4] = {};
  if (feature.cpuid_leaf == 0 ||
      !__get_cpuid_count(feature.cpuid_leaf, feature.cpuid_subleaf, &registers[0], &registers[1],
                         &registers[2], &registers[3])) {
    return false;
  }
  if (feature.cpuid_register >= 4 ||
      (registers[feature.cpuid_register] & (1u << feature.cpuid_bit)) == 0) {
    return false;
  }
  return feature.xcr0_mask == 0 || (os_enabled_xcr0() & feature.xcr0_mask) == feature.xcr0_mask;
#elif defined(__APPLE__) && defined(__aarch64__)
  if (feature.macos_sysctl == nullptr) return false;
  int value = 0;
  std::size_t size = sizeof value;
  if (sysctlbyname(feature.macos_sysctl, &value, &size, nullptr, 0) != 0) return false;
  return value != 0;
#elif defined(__linux__) && defined(__aarch64__)
  if (feature.linux_hwcap_bit == 0) return false;
  return (getauxval(AT_HWCAP) & (1ul << feature.linux_hwcap_bit)) != 0;
#elif defined(__linux__) && defined(__riscv) && __riscv_xlen == 64 && \
    defined(SPONGE_KECCAK_KERNELS_RISCV64)
  // The header that tables riscv64 kernels gives each feature its riscv_hwprobe bits; without
  // such a table no feature of this target is ever asked about.
  const RiscvExtensionSources sources = riscv_extension_sources();
  // "zvl256b" and the like: VLEN from the CPU itself, once V is known present.
  if (const auto bits = riscv_vector_bits_named(feature.name)) {
    return riscv_vector_length_present(sources, *bits, riscv_vlen_bits);
  }
  return riscv_extension_present(sources, feature.riscv_hwprobe_ima_ext_0, feature.name);
#else
  return false;
#endif
}

}  // namespace

bool cpu_has_features(std::span<const sponge_cpu_feature> features) noexcept {
  for (const sponge_cpu_feature& feature : features) {
    if (!cpu_has_feature(feature)) return false;
  }
  return true;
}

}  // namespace sponge::detail
