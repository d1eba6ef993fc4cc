#include "program/instruction_table.hpp"

#include <vector>

#include "isa/target.hpp"

namespace spongegen {
const InstructionSpec& instruction_spec(Mnemonic mnemonic) {
  // The Mnemonic enum counts each ISA's rows one table after the other (program.hpp).
  static const std::vector<const InstructionSpec*> kRows = [] {
    std::vector<const InstructionSpec*> rows;
    for (const Target* isa : targets()) {
      for (const InstructionSpec& spec : isa->instructions())
        rows.push_back(&spec);
    }
    return rows;
  }();
  return *kRows.at(static_cast<std::size_t>(mnemonic));
}

std::span<const InstructionSpec> instruction_table(Isa isa) {
  return target(isa).instructions();
}

std::uint32_t operand_form(const Operand& operand) {
  if (const Reg* reg = std::get_if<Reg>(&operand)) {
    switch (reg->cls) {
      case RegClass::gp32:
        return kGp32;
      case RegClass::gp64:
        return kGp64;
      case RegClass::sp:
        return kSp;
      case RegClass::xmm:
        return kXmm;
      case RegClass::ymm:
        return kYmm;
      case RegClass::zmm:
        return kZmm;
      case RegClass::fp64:
        return kFp64;
      case RegClass::fp128:
        return kFp128;
      case RegClass::rvv:
        return kRvv;
      case RegClass::vec:
        if (reg->arrangement == Arrangement::b16) return kVec16b;
        if (reg->arrangement == Arrangement::d2) return kVec2d;
        return 0;
    }
    return 0;
  }
  if (const Mem* mem = std::get_if<Mem>(&operand))
    return mem->bytes == 8 ? kMem | kMem64 : std::uint32_t{kMem};
  if (std::holds_alternative<Imm>(operand)) return kImm;
  if (std::holds_alternative<LabelRef>(operand) || std::holds_alternative<SymbolRef>(operand)) {
    return kLabel;
  }
  return kShifted;
}

std::string operand_forms_text(std::uint32_t forms) {
  static constexpr std::pair<std::uint32_t, std::string_view> kNames[] = {
      {kGp32, "a 32-bit general-purpose register"},
      {kGp64, "a 64-bit general-purpose register"},
      {kSp, "the stack pointer"},
      {kXmm, "an xmm register"},
      {kYmm, "a ymm register"},
      {kZmm, "a zmm register"},
      {kFp64, "a d register"},
      {kFp128, "a q register"},
      {kRvv, "a riscv64 vector register"},
      {kVec16b, "a .16b vector register"},
      {kVec2d, "a .2d vector register"},
      {kMem64, "a 64-bit memory operand"},
      {kMem, "a memory operand"},
      {kImm, "an immediate"},
      {kLabel, "a label"},
      {kShifted, "a shifted register"},
  };
  std::string text;
  for (const auto& [form, name] : kNames) {
    if ((forms & form) == 0) continue;
    if (form == kMem && (forms & kMem64) != 0) continue;  // named by the sized form
    text += (text.empty() ? "" : " or ") + std::string(name);
  }
  return text.empty() ? "nothing" : text;
}

std::string operand_form_name(const Operand& operand) {
  if (const Mem* mem = std::get_if<Mem>(&operand)) {
    return mem->bytes == 0 ? "a memory operand"
                           : "a " + std::to_string(8 * mem->bytes) + "-bit memory operand";
  }
  return operand_forms_text(operand_form(operand));
}

}  // namespace spongegen
