// What the amd64 and arm64 semantics share: the instruction's operands, the 32-bit views of
// general-purpose registers, and the constant tables that labels name.
#pragma once

#include "prove/machine.hpp"

namespace spongegen::prove {

class InstructionSemantics {
 public:
  InstructionSemantics(Machine& machine, const Instruction& instruction, const LabelRegions& labels)
      : m_(machine), instruction_(instruction), labels_(labels) {}

 protected:
  const Operand& operand(std::size_t i) const { return instruction_.operands.at(i); }
  const Reg& reg(std::size_t i) const { return std::get<Reg>(operand(i)); }
  std::int64_t imm(std::size_t i) const { return std::get<Imm>(operand(i)).value; }

  // A value as a 32-bit register view holds it (read) or leaves it (written: the upper
  // half zero); an address has no 32-bit view.
  static Value low_half(Value value, const char* what) {
    if (value.is_address()) throw MachineError(what);
    for (std::size_t bit = 32; bit < 64; ++bit)
      value.bits[bit] = Poly{};
    return value;
  }

  // The region of the constant table `label` names; throws for a label of code.
  int table_region(LabelId label, const char* what) const {
    const int region = label < labels_.region_of_label.size() ? labels_.region_of_label[label] : -1;
    if (region < 0) throw MachineError(what);
    return region;
  }

  Machine& m_;
  const Instruction& instruction_;
  const LabelRegions& labels_;
};

}  // namespace spongegen::prove
