// What the asmjit writer (asmjit_encoder.cpp) asks of an ISA asmjit encodes: its
// architecture, its assembler, and each instruction's operands as asmjit's. Implemented in
// isa/<name>/encoder.cpp; the layout of the code (alignment, tables, Windows entries) is the
// writer's, the same for every ISA.
#pragma once

#include <asmjit/asmjit.h>

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "program/program.hpp"
#include "writers/asmjit_encoder.hpp"

namespace spongegen::writers {

// One instruction being encoded: the labels its operands may name, and the error that names
// the kernel, function and instruction.
class AsmjitInstruction {
 public:
  AsmjitInstruction(const Instruction& instruction, const std::vector<asmjit::Label>& labels,
                    const std::vector<asmjit::Label>& function_starts,
                    std::function<void(const std::string&)> refuse)
      : instruction(instruction),
        labels_(labels),
        function_starts_(function_starts),
        refuse_(std::move(refuse)) {}

  const Instruction& instruction;
  asmjit::Label label(LabelId id) const { return labels_.at(id); }
  asmjit::Label function_start(std::uint32_t function) const {
    return function_starts_.at(function);
  }
  [[noreturn]] void refuse(const std::string& why) const {
    refuse_(why);
    throw GenerationError(why);  // refuse_ throws; this keeps the function [[noreturn]]
  }

 private:
  const std::vector<asmjit::Label>& labels_;
  const std::vector<asmjit::Label>& function_starts_;
  std::function<void(const std::string&)> refuse_;
};

class AsmjitIsa {
 public:
  virtual ~AsmjitIsa() = default;
  virtual asmjit::Arch arch() const = 0;
  virtual std::unique_ptr<asmjit::BaseAssembler> assembler(asmjit::CodeHolder& code) const = 0;
  // The instruction's asmjit id (from its table row) and operands.
  virtual asmjit::InstId instruction_id(const Instruction& instruction) const = 0;
  virtual std::vector<asmjit::Operand> operands(const AsmjitInstruction& instruction) const = 0;
  // The bytes of an instruction asmjit encodes wrongly, or nothing to let asmjit encode it.
  virtual std::vector<std::uint8_t> bytes_by_hand(const AsmjitInstruction& instruction) const = 0;
};

// Every byte of the program, laid out as the .S file lays it out, with asmjit's validator on.
EncodedProgram encode_with_asmjit(const Program& program, const AsmjitIsa& isa);

}  // namespace spongegen::writers
