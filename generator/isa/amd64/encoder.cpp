// amd64 through asmjit's x86 assembler: the operands as asmjit's.
#include <asmjit/x86.h>

#include "isa/amd64/target_parts.hpp"
#include "program/instruction_table.hpp"
#include "writers/asmjit_isa.hpp"

namespace spongegen::amd64 {
namespace {

using writers::AsmjitInstruction;

asmjit::x86::Gp amd64_base(const AsmjitInstruction& in, const Reg& base) {
  if (base.cls != RegClass::gp64) {
    in.refuse("a memory operand's base must be a 64-bit register");
  }
  return asmjit::x86::gpq(base.index);
}

asmjit::Operand amd64_operand(const AsmjitInstruction& in, const Operand& op) {
  namespace x86 = asmjit::x86;
  if (const Reg* reg = std::get_if<Reg>(&op)) {
    switch (reg->cls) {
      case RegClass::gp64:
        return x86::gpq(reg->index);
      case RegClass::gp32:
        return x86::gpd(reg->index);
      case RegClass::xmm:
        return x86::xmm(reg->index);
      case RegClass::ymm:
        return x86::ymm(reg->index);
      case RegClass::zmm:
        return x86::zmm(reg->index);
      default:
        in.refuse(operand_form_name(op) + " is not an amd64 register");
    }
  }
  if (const Imm* imm = std::get_if<Imm>(&op)) return asmjit::Imm(imm->value);
  if (const LabelRef* label = std::get_if<LabelRef>(&op)) return in.label(label->id);
  if (const SymbolRef* symbol = std::get_if<SymbolRef>(&op)) {
    return in.function_start(symbol->function);
  }
  if (const Mem* mem = std::get_if<Mem>(&op)) {
    if (mem->addressing == Addressing::pc_relative) {
      return x86::ptr(in.label(mem->label), mem->disp, mem->bytes);
    }
    if (mem->addressing != Addressing::offset) {
      in.refuse("amd64 has no pre- or post-indexed addressing");
    }
    return x86::ptr(amd64_base(in, mem->base), mem->disp, mem->bytes);
  }
  in.refuse(operand_form_name(op) + " does not exist on amd64");
}

class Amd64Asmjit final : public writers::AsmjitIsa {
 public:
  asmjit::Arch arch() const override { return asmjit::Arch::kX64; }
  std::unique_ptr<asmjit::BaseAssembler> assembler(asmjit::CodeHolder& code) const override {
    return std::make_unique<asmjit::x86::Assembler>(&code);
  }
  asmjit::InstId instruction_id(const Instruction& instruction) const override {
    return instruction_spec(instruction.mnemonic).asmjit_id;
  }
  std::vector<asmjit::Operand> operands(const AsmjitInstruction& in) const override {
    std::vector<asmjit::Operand> out;
    for (const Operand& op : in.instruction.operands)
      out.push_back(amd64_operand(in, op));
    return out;
  }
  std::vector<std::uint8_t> bytes_by_hand(const AsmjitInstruction&) const override { return {}; }
};

}  // namespace

writers::EncodedProgram encode(const Program& program) {
  static const Amd64Asmjit kAsmjit;
  return writers::encode_with_asmjit(program, kAsmjit);
}

}  // namespace spongegen::amd64
