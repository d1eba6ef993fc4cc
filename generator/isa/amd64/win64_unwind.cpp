#include "isa/amd64/win64_unwind.hpp"

#include <fmt/format.h>

#include "isa/amd64/amd64.hpp"

namespace spongegen {

Win64Prologue win64_prologue(const Function& function) {
  Win64Prologue prologue;
  bool allocated = false;
  std::size_t i = 0;
  for (; i < function.items.size(); ++i) {
    const auto* instruction = std::get_if<Instruction>(&function.items[i]);
    if (instruction == nullptr) continue;
    const auto& operands = instruction->operands;
    const Mnemonic mnemonic = instruction->mnemonic;
    if (mnemonic == Mnemonic::amd64_endbr64 && prologue.codes.empty()) continue;
    if (mnemonic == Mnemonic::amd64_push && !allocated) {
      prologue.codes.push_back({UnwindOp::push_register, std::get<Reg>(operands[0]), 0, i});
      continue;
    }
    if (mnemonic == Mnemonic::amd64_sub && !allocated && std::get<Reg>(operands[0]) == amd64::rsp) {
      if (const auto* bytes = std::get_if<Imm>(&operands[1])) {
        prologue.codes.push_back({UnwindOp::allocate_stack, amd64::rsp, bytes->value, i});
        allocated = true;
        continue;
      }
    }
    if (mnemonic == Mnemonic::amd64_vmovdqu && allocated) {
      const auto* slot = std::get_if<Mem>(&operands[0]);
      const auto* reg = operands.size() > 1 ? std::get_if<Reg>(&operands[1]) : nullptr;
      if (slot != nullptr && reg != nullptr && reg->cls == RegClass::xmm &&
          slot->base == amd64::rsp && slot->addressing == Addressing::offset) {
        prologue.codes.push_back({UnwindOp::save_xmm, *reg, slot->disp, i});
        continue;
      }
    }
    break;
  }
  prologue.end_item = i;
  return prologue;
}

Win64Frame win64_frame(const Win64Prologue& prologue) {
  Win64Frame frame;
  for (const UnwindCode& code : prologue.codes) {
    switch (code.op) {
      case UnwindOp::push_register:
        frame.cfa_offset += 8;
        frame.pushed.emplace_back(code.reg, -frame.cfa_offset);
        break;
      case UnwindOp::allocate_stack:
        frame.allocated = code.value;
        frame.cfa_offset += code.value;
        break;
      case UnwindOp::save_xmm:
        frame.saved_xmm.push_back(code.reg);
        break;
    }
  }
  return frame;
}

std::string unwind_directive(const UnwindCode& code) {
  switch (code.op) {
    case UnwindOp::push_register:
      return fmt::format("SEH_PUSHREG({})", amd64::register_name(code.reg));
    case UnwindOp::allocate_stack:
      return fmt::format("SEH_STACKALLOC({})", code.value);
    case UnwindOp::save_xmm:
      return fmt::format("SEH_SAVEXMM({}, {})", amd64::register_name(code.reg), code.value);
  }
  throw GenerationError("unknown unwind code");
}

}  // namespace spongegen
