// The JIT self-check: before any file is written, each kernel the host can execute is
// loaded with asmjit and every entry is run against the portable reference.
#pragma once

#include <string>

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

}  // namespace spongegen::verify
