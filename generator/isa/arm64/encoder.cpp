// arm64 through asmjit's AArch64 assembler: the operands as asmjit's, and XAR by hand.
#include <asmjit/arm/a64assembler.h>
#include <asmjit/asmjit.h>

#include "isa/arm64/target_parts.hpp"
#include "program/instruction_table.hpp"
#include "writers/asmjit_isa.hpp"

namespace spongegen::arm64 {
namespace {

using writers::AsmjitInstruction;

asmjit::Operand arm64_register(const AsmjitInstruction& in, const Reg& reg) {
  namespace a64 = asmjit::a64;
  switch (reg.cls) {
    case RegClass::gp64:
      return a64::x(reg.index);
    case RegClass::gp32:
      return a64::w(reg.index);
    case RegClass::sp:
      return a64::sp;
    case RegClass::fp64:
      return a64::d(reg.index);
    case RegClass::fp128:
      return a64::v(reg.index);  // asmjit names the whole 128-bit register v, GNU as q
    case RegClass::vec:
      if (reg.arrangement == Arrangement::b16) return a64::v(reg.index).b16();
      if (reg.arrangement == Arrangement::d2) return a64::v(reg.index).d2();
      break;
    default:
      break;
  }
  in.refuse(operand_form_name(reg) + " is not an arm64 register");
}

// A shifted register is two asmjit operands: the register, then the shift.
void arm64_operands(const AsmjitInstruction& in, const Operand& op,
                    std::vector<asmjit::Operand>& out) {
  namespace a64 = asmjit::a64;
  if (const Reg* reg = std::get_if<Reg>(&op)) {
    out.push_back(arm64_register(in, *reg));
    return;
  }
  if (const ShiftedReg* shifted = std::get_if<ShiftedReg>(&op)) {
    static constexpr asmjit::arm::ShiftOp kOps[] = {
        asmjit::arm::ShiftOp::kLSL, asmjit::arm::ShiftOp::kLSR, asmjit::arm::ShiftOp::kASR,
        asmjit::arm::ShiftOp::kROR};
    out.push_back(arm64_register(in, shifted->reg));
    out.push_back(
        asmjit::Imm(asmjit::arm::Shift(kOps[static_cast<int>(shifted->shift)], shifted->amount)));
    return;
  }
  if (const Imm* imm = std::get_if<Imm>(&op)) {
    out.push_back(asmjit::Imm(imm->value));
    return;
  }
  if (const LabelRef* label = std::get_if<LabelRef>(&op)) {
    out.push_back(in.label(label->id));
    return;
  }
  const Mem& mem = std::get<Mem>(op);
  if (mem.base.cls != RegClass::sp && mem.base.cls != RegClass::gp64) {
    in.refuse("a memory operand's base must be x0-x30 or sp");
  }
  const a64::Gp base = mem.base.cls == RegClass::sp ? a64::sp : a64::x(mem.base.index);
  switch (mem.addressing) {
    case Addressing::offset:
      out.push_back(a64::ptr(base, mem.disp));
      return;
    case Addressing::pre_index:
      out.push_back(a64::ptr_pre(base, mem.disp));
      return;
    case Addressing::post_index:
      out.push_back(a64::ptr_post(base, mem.disp));
      return;
    case Addressing::pc_relative:
    case Addressing::go_argument:
      break;
  }
  in.refuse("arm64 memory operands are register-based; use adr for labels");
}

class Arm64Asmjit final : public writers::AsmjitIsa {
 public:
  asmjit::Arch arch() const override { return asmjit::Arch::kAArch64; }
  std::unique_ptr<asmjit::BaseAssembler> assembler(asmjit::CodeHolder& code) const override {
    return std::make_unique<asmjit::a64::Assembler>(&code);
  }
  // The SIMD form's id when the first operand is a SIMD register (asmjit's ids differ: ldp
  // x0, x1 vs ldp d0, d1).
  asmjit::InstId instruction_id(const Instruction& instruction) const override {
    const InstructionSpec& spec = instruction_spec(instruction.mnemonic);
    const Reg* first =
        instruction.operands.empty() ? nullptr : std::get_if<Reg>(&instruction.operands[0]);
    const bool simd =
        first != nullptr && (first->cls == RegClass::fp64 || first->cls == RegClass::fp128 ||
                             first->cls == RegClass::vec);
    return simd ? spec.asmjit_simd_id : spec.asmjit_id;
  }
  std::vector<asmjit::Operand> operands(const AsmjitInstruction& in) const override {
    std::vector<asmjit::Operand> out;
    for (const Operand& op : in.instruction.operands)
      arm64_operands(in, op, out);
    // `ret` with no operand returns through x30, as GNU as assumes.
    if (in.instruction.mnemonic == Mnemonic::arm64_ret && out.empty()) {
      out.push_back(asmjit::a64::x30);
    }
    return out;
  }
  // XAR by hand: Debian's asmjit snapshot (0.0~git20221210) encodes it with the wrong
  // opcode bits (0xce6..., where the Arm ARM has 0xce800000 | Rm << 16 | imm6 << 10 |
  // Rn << 5 | Rd). The encoding proof found this by comparing with GNU as; the word below is
  // checked by that same proof on every run of the tests.
  std::vector<std::uint8_t> bytes_by_hand(const AsmjitInstruction& in) const override {
    if (in.instruction.mnemonic != Mnemonic::arm64_xar) return {};
    const Reg& d = std::get<Reg>(in.instruction.operands.at(0));
    const Reg& n = std::get<Reg>(in.instruction.operands.at(1));
    const Reg& m = std::get<Reg>(in.instruction.operands.at(2));
    const std::int64_t rotate = std::get<Imm>(in.instruction.operands.at(3)).value;
    if (rotate < 0 || rotate > 63) in.refuse("xar rotates by 0..63");
    const std::uint32_t word = 0xce800000u | std::uint32_t{m.index} << 16 |
                               static_cast<std::uint32_t>(rotate) << 10 |
                               std::uint32_t{n.index} << 5 | std::uint32_t{d.index};
    return {static_cast<std::uint8_t>(word), static_cast<std::uint8_t>(word >> 8),
            static_cast<std::uint8_t>(word >> 16),
            static_cast<std::uint8_t>(word >> 24)};  // A64 is little-endian
  }
};

}  // namespace

writers::EncodedProgram encode(const Program& program) {
  static const Arm64Asmjit kAsmjit;
  return writers::encode_with_asmjit(program, kAsmjit);
}

}  // namespace spongegen::arm64
