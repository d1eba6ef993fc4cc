#include "verify/jit_verify.hpp"

#include <array>
#include <cstdint>
#include <cstring>

#include "kernel.hpp"  // the runtime's portable reference
#include "support/splitmix64.hpp"
#include "writers/asmjit_encoder.hpp"

#if defined(__x86_64__)
#include <cpuid.h>
#endif

namespace spongegen::verify {
namespace {

constexpr int kTrialsPerEntry = 2000;

bool host_supports(const std::string& kernel_name) {
#if defined(__x86_64__)
  if (kernel_name == "amd64-bmi2") {
    unsigned eax, ebx, ecx, edx;
    if (!__get_cpuid_count(7, 0, &eax, &ebx, &ecx, &edx)) return false;
    return (ebx & (1u << 3)) != 0 && (ebx & (1u << 8)) != 0;  // BMI1, BMI2
  }
#endif
  (void)kernel_name;
  return false;
}

}  // namespace

VerifyResult verify_against_portable(const kernels::KernelSpec& spec,
                                     const kernels::BuiltKernel& kernel) {
  if (!writers::host_runs(spec.isa) || !host_supports(spec.name)) {
    return {false, "not run: this host cannot execute " + spec.name};
  }
  const writers::JitImage image(kernel.program);
  SplitMix64 random{0x5eed0f5b0b6eull};
  std::size_t trials = 0;
  for (const kernels::Entry& entry : kernel.entries) {
    const void* code = image.entry(entry.symbol);
    for (int trial = 0; trial < kTrialsPerEntry; ++trial) {
      std::array<std::uint64_t, 25> expected, actual;
      for (auto& lane : expected)
        lane = random.next();
      // The block sits at every misalignment 0..7 in turn.
      alignas(8) std::uint8_t storage[168 + 8];
      const std::size_t misalignment = static_cast<std::size_t>(trial % 8);
      std::uint8_t* block = storage + misalignment;
      for (int i = 0; i < entry.absorb_rate_bytes; ++i)
        block[i] = static_cast<std::uint8_t>(random.next());
      actual = expected;
      if (entry.absorb_rate_bytes == 0) {
        sponge::detail::keccak_f1600_portable(expected.data());
        reinterpret_cast<sponge::detail::PermuteFn>(code)(actual.data());
      } else {
        for (int lane = 0; lane < entry.absorb_rate_bytes / 8; ++lane) {
          std::uint64_t value;
          std::memcpy(&value, block + 8 * lane, 8);
          expected[lane] ^= value;
        }
        sponge::detail::keccak_f1600_portable(expected.data());
        reinterpret_cast<sponge::detail::AbsorbFn>(code)(actual.data(), block);
      }
      if (actual != expected) {
        throw GenerationError("kernel " + spec.name + ": JIT self-check failed: entry " +
                              entry.symbol + " differs from the portable permutation on trial " +
                              std::to_string(trial));
      }
      ++trials;
    }
  }
  return {true, "JIT self-check: " + std::to_string(kernel.entries.size()) + " entries x " +
                    std::to_string(kTrialsPerEntry) + " random states agree with portable (" +
                    std::to_string(trials) + " trials)"};
}

}  // namespace spongegen::verify
