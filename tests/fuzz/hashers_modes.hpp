// The RFC 9861 and SP 800-185 part of sponge_fuzz_hashers (hashers_modes.cpp).
#pragma once

#include <cstddef>

#include "fuzz/fuzz_support.hpp"

namespace sponge_fuzz {

// How many functions run_mode_program knows: TurboSHAKE128/256, KT128/256, cSHAKE128/256,
// KMAC128/256, KMACXOF128/256, TupleHash128/256, TupleHashXOF128/256, ParallelHash128/256,
// ParallelHashXOF128/256.
inline constexpr std::size_t kModeFunctionCount = 18;

// Runs the program in `input` on function `function` (< kModeFunctionCount).
void run_mode_program(std::size_t function, FuzzInput& input);

}  // namespace sponge_fuzz
