// What an instruction reads and writes, for the audit and the invariant checks. The effects
// come from the instruction tables (program/instruction_table.hpp): each operand position's
// access and the row's behaviour, so a new mnemonic needs no code here.
#pragma once

#include <compare>
#include <cstdint>
#include <functional>
#include <string>
#include <variant>
#include <vector>

#include "program/instruction_table.hpp"
#include "program/program.hpp"

namespace spongegen::audit {

// Storage, typed: all views of one register are one location (rax and eax; xmm3, ymm3 and
// zmm3; d8, v8.16b and v8.2d), and a vector register never aliases a general-purpose one.
enum class RegisterFile : std::uint8_t { gp, vector, stack_pointer, flags };

struct RegisterLocation {
  RegisterFile file;
  std::uint8_t index;
  auto operator<=>(const RegisterLocation&) const = default;
};

// Memory named by the base register as it was before the instruction and the byte offset
// from it; or, for a constant table, by its label.
struct MemoryLocation {
  RegisterLocation base;
  LabelId label;  // kNoLabel unless pc-relative
  std::int32_t offset;
  auto operator<=>(const MemoryLocation&) const = default;
};

using Location = std::variant<RegisterLocation, MemoryLocation>;

// The amd64 arithmetic flags, as one location (jne reads what cmp, sub, xor... wrote).
inline constexpr Location kFlags = RegisterLocation{RegisterFile::flags, 0};

inline bool is_memory(const Location& location) {
  return std::holds_alternative<MemoryLocation>(location);
}

struct Effects {
  InstructionClass cls = InstructionClass::other;
  std::vector<Location> reads;
  std::vector<Location> writes;
  std::vector<const Mem*> loads;   // memory operands read
  std::vector<const Mem*> stores;  // memory operands written
  // Stack pointer movement in bytes (negative: the stack grows): push/pop, pre/post-indexed
  // sp accesses, and `sub rsp, N` / `add rsp, N`.
  int stack_adjust = 0;
  bool is_conditional_branch = false;
  bool is_unconditional_branch = false;  // jmp, b
  bool is_return = false;
  // What it writes does not depend on what it reads (xor of a register with itself,
  // vzeroall): the written registers hold a constant.
  bool writes_constant = false;
  const LabelRef* target = nullptr;
};

Location register_location(Isa isa, const Reg& reg);
Location memory_location(Isa isa, const Mem& mem);
std::string location_name(Isa isa, const Location& location);  // "rbx", "v8", "m:rsp:200"
// The stack pointer's location on `isa` (amd64 rsp, arm64 sp).
Location stack_pointer_location(Isa isa);

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
