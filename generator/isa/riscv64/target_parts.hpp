// The pieces of the riscv64 Target (target.cpp) that live in files of their own: its
// assembler syntax (printer.cpp), its encoder (encoder.cpp) and the prover's semantics of
// its instruction table (semantics.cpp).
#pragma once

#include <string>
#include <vector>

#include "isa/target.hpp"
#include "prove/machine.hpp"
#include "writers/asmjit_encoder.hpp"

namespace spongegen::riscv64 {

std::string gas_operand(const Program& program, const Operand& operand);
std::vector<Operand> read_operands(const std::vector<std::string>& texts, OperandReader& reader);
writers::EncodedProgram encode(const Program& program);

}  // namespace spongegen::riscv64

namespace spongegen::prove {
Control execute_riscv64(Machine& machine, const Instruction& instruction,
                        const LabelRegions& labels);
}
