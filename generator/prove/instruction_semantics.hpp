// What the ISAs' semantics share: the instruction's operands, the 32-bit views of
// general-purpose registers, adding an immediate, and the constant tables that labels name.
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

  // An add of an immediate to a register that sets no flags (riscv64's addi): address
  // arithmetic (an address plus an integer), the block count's decrement, or arithmetic on
  // known integers; `what` names the operand in the error for anything else.
  static Value add_immediate(Value a, std::int64_t delta, const char* what) {
    if (a.block_count) {
      if (delta != -1) throw MachineError("the block count changed by other than -1");
      Value counted = Value::integer(count_of(a, "the block count") - 1);
      counted.block_count = true;
      return counted;
    }
    if (a.is_address()) {
      a.pointer->offset += delta;
      return a;
    }
    return Value::integer(integer_of(a, what) + static_cast<std::uint64_t>(delta));
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
