#include "verify/jit_verify.hpp"

#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

#include "dispatch/x86_xcr0.hpp"  // runtime/src: XCR0, as the runtime reads it
#include "isa/target.hpp"
#include "support/splitmix64.hpp"
#include "writers/asmjit_encoder.hpp"

#if defined(__x86_64__)
#include <cpuid.h>
#endif

namespace spongegen::verify {
namespace {

constexpr int kTrialsPerEntry = 2000;
constexpr int kLargestBlockBytes = 168;

// Whether this host has every CPU feature of the kernel's declaration (CpuFeature).
bool host_supports(const kernels::KernelSpec& spec) {
#if defined(__x86_64__)
  if (!target(spec.isa).runs_on_host()) return false;
  for (const CpuFeature& feature : spec.cpu_features) {
    unsigned registers[4] = {};
    if (!__get_cpuid_count(feature.cpuid_leaf, feature.cpuid_subleaf, &registers[0], &registers[1],
                           &registers[2], &registers[3])) {
      return false;
    }
    if ((registers[feature.cpuid_register] & (1u << feature.cpuid_bit)) == 0) return false;
    if (feature.xcr0_mask != 0 &&
        (sponge::detail::os_enabled_xcr0() & feature.xcr0_mask) != feature.xcr0_mask) {
      return false;
    }
  }
  return true;
#else
  (void)spec;
  return false;  // the JIT runs x86-64 code only (writers::host_runs)
#endif
}

// The entry signatures (EntryShape::parameters): the state, then the input, a block count
// and an output as the entry takes them.
using PermuteCall = void (*)(std::uint64_t* state);
using BlockCall = void (*)(std::uint64_t* state, const std::uint8_t* block);
using BlocksPerStateCall = void (*)(std::uint64_t* state, const std::uint8_t* const* blocks);
using BlocksCall = void (*)(std::uint64_t* state, const std::uint8_t* blocks, std::size_t count);
using BlocksPerStateCountCall = void (*)(std::uint64_t* state, const std::uint8_t* const* blocks,
                                         std::size_t count);
using CryptCall = void (*)(std::uint64_t* state, const std::uint8_t* in, std::uint8_t* out,
                           std::size_t count);

constexpr std::size_t kMostStates = 8;
constexpr std::size_t kLargestStateWords = 25 * kMostStates;
constexpr std::size_t kMostBlocks = 3;  // multi-block entries get 0..3 blocks a trial

void call_entry(const void* code, const EntryShape& shape, const kernels::EntryCall& call) {
  switch (shape.parameters.size()) {
    case 1:
      reinterpret_cast<PermuteCall>(code)(call.state);
      return;
    case 2:
      if (shape.lanes > 1) {
        reinterpret_cast<BlocksPerStateCall>(code)(call.state, call.blocks);
      } else {
        reinterpret_cast<BlockCall>(code)(call.state, call.in);
      }
      return;
    case 3:
      if (shape.lanes > 1) {
        reinterpret_cast<BlocksPerStateCountCall>(code)(call.state, call.blocks, call.block_count);
      } else {
        reinterpret_cast<BlocksCall>(code)(call.state, call.in, call.block_count);
      }
      return;
    case 4:
      reinterpret_cast<CryptCall>(code)(call.state, call.in, call.out, call.block_count);
      return;
  }
  throw GenerationError("the JIT self-check has no call for a signature of " +
                        std::to_string(shape.parameters.size()) + " parameters");
}

}  // namespace

VerifyResult verify_against_portable(const kernels::KernelSpec& spec,
                                     const kernels::BuiltKernel& kernel,
                                     const writers::EncodedProgram& encoded) {
  if (!target(spec.isa).runs_on_host() || !host_supports(spec)) {
    return {false, "not run: this host cannot execute " + spec.name};
  }
  const writers::JitImage image(kernel.program, encoded);
  SplitMix64 random{0x5eed0f5b0b6eull};
  std::size_t trials = 0;
  for (const Function& entry : kernel.program.functions) {
    const EntryShape& shape = entry.shape;
    const std::size_t parameters = shape.parameters.size();
    const std::size_t state_words =
        parameters == 0 ? 0 : static_cast<std::size_t>(shape.parameters[0].extent);
    const bool many_blocks = shape.takes_block_count();
    const bool per_state_blocks = shape.lanes > 1 && shape.rate_bytes > 0;
    if ((shape.lanes > 1 &&
         (parameters == 4 || static_cast<std::size_t>(shape.lanes) > kMostStates ||
          state_words != 25u * static_cast<std::size_t>(shape.lanes))) ||
        shape.lanes < 1 || shape.rate_bytes > kLargestBlockBytes || parameters == 0 ||
        parameters > 4 || state_words == 0 || state_words > kLargestStateWords) {
      throw GenerationError("kernel " + spec.name + ": the JIT self-check has no call for entry " +
                            entry.symbol + " (" + entry_shape_line(shape) + ")");
    }
    const void* code = image.entry(entry.symbol);
    for (int trial = 0; trial < kTrialsPerEntry; ++trial) {
      std::array<std::uint64_t, kLargestStateWords> expected{}, actual{};
      for (std::size_t word = 0; word < state_words; ++word)
        expected[word] = random.next();
      actual = expected;
      // The input sits at every misalignment 0..7 in turn; the output at another, or in place
      // on every other trial.
      const std::size_t blocks = many_blocks ? random.below(kMostBlocks + 1) : 1;
      const std::size_t bytes = blocks * static_cast<std::size_t>(shape.rate_bytes);
      alignas(8) std::uint8_t input[kMostBlocks * kLargestBlockBytes + 8];
      alignas(8) std::uint8_t expected_out[kMostBlocks * kLargestBlockBytes + 8] = {};
      alignas(8) std::uint8_t actual_out[kMostBlocks * kLargestBlockBytes + 8] = {};
      const std::size_t misalignment = static_cast<std::size_t>(trial % 8);
      std::uint8_t* in = input + misalignment;
      for (std::size_t i = 0; i < bytes; ++i)
        in[i] = static_cast<std::uint8_t>(random.next());
      const bool in_place = parameters == 4 && trial % 2 == 1;
      std::uint8_t* expected_dst = expected_out + (7 - misalignment);
      std::uint8_t* actual_dst = actual_out + (7 - misalignment);
      if (in_place) {
        std::copy(in, in + bytes, expected_dst);
        std::copy(in, in + bytes, actual_dst);
      }
      // Multi-state absorb entries: each state's blocks at their own misalignment inside one
      // buffer, and on every third trial two states share their blocks.
      alignas(8) std::uint8_t state_blocks[kMostStates][kMostBlocks * kLargestBlockBytes + 8];
      std::array<const std::uint8_t*, kMostStates> block_pointers{};
      if (per_state_blocks) {
        for (std::size_t s = 0; s < static_cast<std::size_t>(shape.lanes); ++s) {
          std::uint8_t* block = state_blocks[s] + (misalignment + s) % 8;
          for (std::size_t i = 0; i < bytes; ++i)
            block[i] = static_cast<std::uint8_t>(random.next());
          block_pointers[s] = block;
        }
        if (trial % 3 == 0) block_pointers[shape.lanes - 1] = block_pointers[0];
      }
      spec.reference(shape, {expected.data(), in_place ? expected_dst : in, expected_dst, blocks,
                             block_pointers.data()});
      call_entry(
          code, shape,
          {actual.data(), in_place ? actual_dst : in, actual_dst, blocks, block_pointers.data()});
      if (actual != expected || !std::equal(expected_dst, expected_dst + bytes, actual_dst)) {
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

std::optional<bool> entry_differs_on_host(const kernels::KernelSpec& spec, const Program& program,
                                          const std::string& symbol, const EntryInput& input) {
  if (!target(spec.isa).runs_on_host() || !host_supports(spec)) return std::nullopt;
  const auto entry = std::find_if(program.functions.begin(), program.functions.end(),
                                  [&](const Function& f) { return f.symbol == symbol; });
  if (entry == program.functions.end()) return std::nullopt;
  const writers::EncodedProgram encoded = writers::encode(program);
  const writers::JitImage image(program, encoded);
  const EntryShape& shape = entry->shape;
  // Each side on its own copies: the state, the input buffers, the output.
  struct Side {
    std::vector<std::uint64_t> state;
    std::vector<std::vector<std::uint8_t>> buffers;
    std::vector<std::uint8_t> out;
    std::vector<const std::uint8_t*> blocks;
  };
  const auto prepare = [&] {
    Side side{input.state, input.buffers, {}, {}};
    for (const auto& buffer : side.buffers)
      side.blocks.push_back(buffer.data());
    if (!side.buffers.empty()) side.out.assign(side.buffers[0].size() + 1, 0);
    return side;
  };
  Side expected = prepare(), actual = prepare();
  const auto call_of = [&](Side& side) {
    std::uint8_t* in = side.buffers.empty() ? nullptr : side.buffers[0].data();
    std::uint8_t* out = input.in_place ? in : side.out.data();
    return kernels::EntryCall{side.state.data(), in, out, input.block_count, side.blocks.data()};
  };
  spec.reference(shape, call_of(expected));
  call_entry(image.entry(symbol), shape, call_of(actual));
  return expected.state != actual.state || expected.buffers != actual.buffers ||
         expected.out != actual.out;
}

}  // namespace spongegen::verify
