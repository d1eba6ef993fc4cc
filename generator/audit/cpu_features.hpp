// The CPU-feature check: every instruction of a Program needs only CPU features its kernel
// declares, or the runtime would call the kernel on a CPU that cannot run it.
#pragma once

#include <vector>

#include "program/cpu_features.hpp"
#include "program/program.hpp"

namespace spongegen::audit {

// Throws GenerationError, naming the kernel, the function, the instruction and the feature,
// unless every instruction's CPU features (its instruction table row's, and avx512vl for an
// AVX-512 instruction without a zmm operand) are among `declared`.
void check_cpu_features(const Program& program, const std::vector<CpuFeature>& declared);

}  // namespace spongegen::audit
