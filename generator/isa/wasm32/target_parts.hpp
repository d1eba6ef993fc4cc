// The pieces of the wasm32 Target (target.cpp) that live in files of their own besides those
// isa/wasm32/wasm32.hpp declares: the prover's semantics of its instruction table
// (semantics.cpp).
#pragma once

#include "isa/target.hpp"
#include "prove/machine.hpp"

namespace spongegen::prove {
Control execute_wasm32(Machine& machine, const Instruction& instruction,
                       const LabelRegions& labels);
}
