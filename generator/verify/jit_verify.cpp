#include "verify/jit_verify.hpp"

#include <array>
#include <cstdint>
#include <vector>

#include "support/splitmix64.hpp"
#include "writers/asmjit_encoder.hpp"

#if defined(__x86_64__)
#include <cpuid.h>
#endif

namespace spongegen::verify {
namespace {

constexpr int kTrialsPerEntry = 2000;
constexpr int kLargestBlockBytes = 168;

// Whether this host has every CPU feature of the kernel's declaration (kernels::CpuFeature).
bool host_supports(const kernels::KernelSpec& spec) {
#if defined(__x86_64__)
  if (spec.isa != Isa::amd64) return false;
  for (const kernels::CpuFeature& feature : spec.cpu_features) {
    unsigned registers[4] = {};
    if (!__get_cpuid_count(feature.cpuid_leaf, feature.cpuid_subleaf, &registers[0], &registers[1],
                           &registers[2], &registers[3])) {
      return false;
    }
    if ((registers[feature.cpuid_register] & (1u << feature.cpuid_bit)) == 0) return false;
  }
  return true;
#else
  (void)spec;
  return false;  // the JIT runs x86-64 code only (writers::host_runs)
#endif
}

using PermuteCall = void (*)(std::uint64_t* state);
using AbsorbCall = void (*)(std::uint64_t* state, const std::uint8_t* block);

}  // namespace

VerifyResult verify_against_portable(const kernels::KernelSpec& spec,
                                     const kernels::BuiltKernel& kernel) {
  if (!writers::host_runs(spec.isa) || !host_supports(spec)) {
    return {false, "not run: this host cannot execute " + spec.name};
  }
  const writers::JitImage image(kernel.program);
  SplitMix64 random{0x5eed0f5b0b6eull};
  std::size_t trials = 0;
  for (const Function& entry : kernel.program.functions) {
    const EntryShape& shape = entry.shape;
    if (shape.lanes != 1 || shape.rate_bytes > kLargestBlockBytes) {
      throw GenerationError("kernel " + spec.name + ": the JIT self-check has no call for entry " +
                            entry.symbol + " (" + entry_shape_line(shape) + ")");
    }
    const void* code = image.entry(entry.symbol);
    for (int trial = 0; trial < kTrialsPerEntry; ++trial) {
      std::array<std::uint64_t, 25> expected, actual;
      for (auto& lane : expected)
        lane = random.next();
      // The block sits at every misalignment 0..7 in turn.
      alignas(8) std::uint8_t storage[kLargestBlockBytes + 8];
      const std::size_t misalignment = static_cast<std::size_t>(trial % 8);
      std::uint8_t* block = storage + misalignment;
      for (int i = 0; i < shape.rate_bytes; ++i)
        block[i] = static_cast<std::uint8_t>(random.next());
      actual = expected;
      spec.reference(shape, expected.data(), block);
      if (shape.kind == EntryKind::permute) {
        reinterpret_cast<PermuteCall>(code)(actual.data());
      } else {
        reinterpret_cast<AbsorbCall>(code)(actual.data(), block);
      }
      if (actual != expected) {
        throw GenerationError("kernel " + spec.name + ": JIT self-check failed: entry " +
                              entry.symbol + " (" + entry_shape_line(shape) +
                              ") differs from the reference on trial " + std::to_string(trial));
      }
      ++trials;
    }
  }
  return {true, "JIT self-check: " + std::to_string(kernel.program.functions.size()) +
                    " entries x " + std::to_string(kTrialsPerEntry) +
                    " random states agree with the reference (" + std::to_string(trials) +
                    " trials)"};
}

}  // namespace spongegen::verify
