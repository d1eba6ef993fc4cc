// What an instruction reads and writes, for the audit and the invariant checks.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "program/program.hpp"

namespace spongegen::audit {

enum class InstructionClass { alu, rotate, andn, ternary, vector_permute, branch, other };

// A storage location: "r<N>" for an amd64 register, "x<N>"/"v<N>"/"sp" for arm64 (all
// views of a SIMD register are one location), "m:<base>:<disp>" for memory, with the base
// a register location or "label<N>" for a constant table.
using Location = std::string;

// The amd64 arithmetic flags, as one location (jne reads what cmp, sub, xor... wrote).
inline const Location kFlags = "flags";

struct Effects {
  InstructionClass cls = InstructionClass::other;
  std::vector<Location> reads;
  std::vector<Location> writes;
  std::vector<const Mem*> loads;   // memory operands read
  std::vector<const Mem*> stores;  // memory operands written
  // Stack pointer movement by push/pop or pre/post-indexed sp access, in bytes (negative:
  // the stack grows). `sub rsp, N` shows as a write of the register, handled by the caller.
  int stack_adjust = 0;
  bool is_conditional_branch = false;
  bool is_unconditional_branch = false;  // jmp, b
  bool is_return = false;
  const LabelRef* target = nullptr;
};

Location register_location(Isa isa, const Reg& reg);
Location memory_location(Isa isa, const Mem& mem);
std::string location_name(Isa isa, const Location& location);  // "rbx", "v8", ...

Effects effects_of(Isa isa, const Instruction& instruction);

// One executed item, as walk_entry sees it.
struct Step {
  const Item* item;
  int round_index;  // -1 outside rounds; else the how-manyth round region entered
};

// Walks what a call of `function` executes, in order, ending at the return. Conditional
// branches close loops: each is taken while the call has entered fewer round regions than
// the function's EntryShape::rounds (the rounds do not depend on the data, so this is
// exactly what the code does).
void walk_entry(const Program& program, std::size_t function,
                const std::function<void(const Step&)>& visit);

}  // namespace spongegen::audit
