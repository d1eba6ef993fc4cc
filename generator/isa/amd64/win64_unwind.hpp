// The Windows x64 unwind codes of an amd64 function's prologue, read from its instructions:
// what `.seh_pushreg`, `.seh_stackalloc` and `.seh_savexmm` tell the assembler, which turns
// them into the UNWIND_INFO that RtlVirtualUnwind walks. The writer prints them; the
// invariants compare them with the function's DWARF CFI records, which the builders write
// separately, so a prologue whose two descriptions disagree fails at generation.
#pragma once

#include <cstddef>
#include <vector>

#include "program/program.hpp"

namespace spongegen {

enum class UnwindOp : std::uint8_t {
  push_register,   // push reg: .seh_pushreg reg
  allocate_stack,  // sub rsp, bytes: .seh_stackalloc bytes
  save_xmm,        // a 16-byte store of xmm<reg> at [rsp + offset]: .seh_savexmm reg, offset
};

struct UnwindCode {
  UnwindOp op;
  Reg reg{RegClass::gp64, 0};
  std::int64_t value = 0;        // allocate_stack: bytes; save_xmm: offset from rsp
  std::size_t instruction_item;  // the index in Function::items of the instruction it describes
};

struct Win64Prologue {
  std::vector<UnwindCode> codes;
  // The index in Function::items of the first instruction after the prologue (where
  // .seh_endprologue goes); items.size() when the function is all prologue.
  std::size_t end_item = 0;
};

// The prologue of `function`: its leading endbr64, pushes of general-purpose registers, one
// `sub rsp, N` and 16-byte stores of xmm registers at [rsp + offset], in any order Windows
// allows (the pushes first); it ends at the first other instruction.
Win64Prologue win64_prologue(const Function& function);

// The frame a prologue's codes build, as the Windows unwinder sees it.
struct Win64Frame {
  // Each pushed register with its offset from the CFA (the stack pointer before the call).
  std::vector<std::pair<Reg, std::int64_t>> pushed;
  std::vector<Reg> saved_xmm;
  std::int64_t allocated = 0;   // by the sub rsp
  std::int64_t cfa_offset = 8;  // the CFA's distance from rsp after the prologue
  friend bool operator==(const Win64Frame&, const Win64Frame&) = default;
};
Win64Frame win64_frame(const Win64Prologue& prologue);

std::string unwind_directive(const UnwindCode& code);  // "SEH_PUSHREG(rbx)"

}  // namespace spongegen
