// The JIT self-check: before any file is written, each kernel the host can execute is
// loaded with asmjit and every entry is run against the portable reference.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "kernels/kernel.hpp"
#include "writers/asmjit_encoder.hpp"

namespace spongegen::verify {

struct VerifyResult {
  bool ran = false;     // false when the host cannot execute the kernel
  std::string summary;  // what was checked, or why nothing was
};

// Throws GenerationError on the first mismatch, naming the entry and the trial.
// `encoded` is the kernel's Program as writers::encode laid it out.
VerifyResult verify_against_portable(const kernels::KernelSpec& spec,
                                     const kernels::BuiltKernel& kernel,
                                     const writers::EncodedProgram& encoded);

// Runs one entry of `program` (as the JIT loads it) and the spec's reference on copies of
// one input and says whether they disagree (state or output): the confirmation of a
// counterexample on this CPU. Nothing when this host cannot execute the kernel.
struct EntryInput {
  std::vector<std::uint64_t> state;                // as the state array holds it
  std::vector<std::vector<std::uint8_t>> buffers;  // the block(s), or the input
  std::size_t block_count = 1;
  bool in_place = false;  // encrypt and decrypt: the output is the input
};
std::optional<bool> entry_differs_on_host(const kernels::KernelSpec& spec, const Program& program,
                                          const std::string& symbol, const EntryInput& input);

}  // namespace spongegen::verify
