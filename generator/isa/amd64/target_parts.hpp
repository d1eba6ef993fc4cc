// The pieces of the amd64 Target (target.cpp) that live in files of their own: its
// assembler syntaxes (printer.cpp), its encoding (encoder.cpp) and the prover's semantics
// of its instruction table (semantics.cpp).
#pragma once

#include <string>
#include <vector>

#include "isa/target.hpp"
#include "prove/machine.hpp"
#include "writers/asmjit_encoder.hpp"

namespace spongegen::amd64 {

std::string gas_operand(const Program& program, const Operand& operand);
std::vector<Operand> read_operands(const std::vector<std::string>& texts, OperandReader& reader);
std::string go_instruction(const Program& program, const Function& function,
                           const Instruction& instruction);
writers::EncodedProgram encode(const Program& program);

}  // namespace spongegen::amd64

namespace spongegen::prove {
Control execute_amd64(Machine& machine, const Instruction& instruction, const LabelRegions& labels);
}
