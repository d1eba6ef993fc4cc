// The instruction tables: per ISA, one row per mnemonic with everything every consumer
// needs (isa/<name>/instructions.def): the text the writer prints, the
// asmjit id the encoder uses, the operand forms the encoder accepts, what each operand
// position does (read, write, address) and the instruction's other effects for the audit
// and the taint analysis, and the CPU feature it needs. Adding a mnemonic is one row.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>

#include "program/program.hpp"

namespace spongegen {

// The audit's instruction classes (audit::InstructionMix counts one per instruction).
enum class InstructionClass : std::uint8_t {
  alu,
  rotate,
  andn,
  ternary,
  vector_permute,
  branch,
  other
};

// Operand forms, as a bit set per operand position.
enum OperandForm : std::uint32_t {
  kGp32 = 1u << 0,
  kGp64 = 1u << 1,
  kGp = kGp32 | kGp64,
  kSp = 1u << 2,  // arm64 sp
  kXmm = 1u << 3,
  kYmm = 1u << 4,
  kZmm = 1u << 5,
  kFp64 = 1u << 6,    // arm64 dN
  kVec16b = 1u << 7,  // arm64 vN.16b
  kVec2d = 1u << 8,   // arm64 vN.2d
  kMem = 1u << 9,     // a memory operand of any size
  kMem64 = 1u << 10,  // a 64-bit memory operand (amd64 qword ptr)
  kImm = 1u << 11,
  kLabel = 1u << 12,
  kShifted = 1u << 13,  // arm64 shifted register: x2, ror #19
  kFp128 = 1u << 14,    // arm64 qN
  kRvv = 1u << 15,      // riscv64 vN
};

// What the instruction does with an operand position.
enum class Access : std::uint8_t {
  read,
  write,
  read_write,
  address,  // a memory operand whose address is computed but not accessed (lea, adr)
  target,   // a branch target label
};

struct OperandSpec {
  Access access;
  std::uint32_t forms;
};
constexpr OperandSpec read(std::uint32_t forms) {
  return {Access::read, forms};
}
constexpr OperandSpec write(std::uint32_t forms) {
  return {Access::write, forms};
}
constexpr OperandSpec read_write(std::uint32_t forms) {
  return {Access::read_write, forms};
}
constexpr OperandSpec address(std::uint32_t forms) {
  return {Access::address, forms};
}
constexpr OperandSpec target() {
  return {Access::target, kLabel};
}

// Effects beyond the operands, and how the writer and the audit treat the row.
enum Behaviour : std::uint32_t {
  kNone = 0,
  kWritesFlags = 1u << 0,
  kReadsFlags = 1u << 1,
  kConditionalBranch = 1u << 2,
  kUnconditionalBranch = 1u << 3,
  kReturn = 1u << 4,        // amd64: pops the return address; arm64: branches to x30
  kPush = 1u << 5,          // amd64 push: stores below the stack pointer and moves it by -8
  kPop = 1u << 6,           // amd64 pop: loads at the stack pointer and moves it by +8
  kPair = 1u << 7,          // arm64 ldp/stp: the memory operand covers both registers
  kMove = 1u << 8,          // a plain move: an ALU op between registers, `other` with memory
  kRegisterList = 1u << 9,  // arm64: the first operand prints as {v0.2d}
  kAddsImmediateToStack = 1u << 10,         // `add rsp, N` moves the stack pointer by +N
  kSubtractsImmediateFromStack = 1u << 11,  // `sub rsp, N` moves it by -N
  kClearsVectorRegisters = 1u << 12,        // vzeroall: every vector register becomes zero
  // xor with two equal sources: the result is zero whatever the register held (the zero
  // idiom), so it is public data however secret the register was.
  kZeroWhenSourcesEqual = 1u << 13,
  kCall = 1u << 14,  // amd64 call: pushes the return address; the callee returns after it
};

inline constexpr std::size_t kMaxOperands = 4;

struct InstructionSpec {
  Mnemonic mnemonic;
  std::string_view text;  // as the assembler spells it
  Isa isa;
  InstructionClass cls;
  std::string_view cpu_feature;  // "" when the base ISA has it
  std::uint32_t asmjit_id;
  std::uint32_t asmjit_simd_id;  // arm64: the id of the SIMD form; amd64: asmjit_id
  std::uint32_t behaviour;
  std::size_t operand_count;
  std::array<OperandSpec, kMaxOperands> operands;

  bool has(Behaviour flag) const { return (behaviour & flag) != 0; }
};

const InstructionSpec& instruction_spec(Mnemonic mnemonic);

// A row's operand positions, for the ISAs' tables (isa/<name>/target.cpp): the positions a
// row leaves out have no forms, and the count is of those it gives.
template <typename... Specs>
constexpr std::array<OperandSpec, kMaxOperands> operand_specs(Specs... specs) {
  return {specs...};
}
constexpr std::size_t operand_count(const std::array<OperandSpec, kMaxOperands>& specs) {
  std::size_t count = 0;
  for (const OperandSpec& spec : specs)
    count += spec.forms != 0;
  return count;
}

// One row of an ISA's table as an InstructionSpec: each ISA's row macro (SPONGEGEN_AMD64...)
// expands to this with its encoder's ids.
#define SPONGEGEN_TABLE_ROW(isa_name, name, text, cls, feature, id, simd_id, behaviour, ...) \
  InstructionSpec{Mnemonic::isa_name##_##name,                                               \
                  text,                                                                      \
                  Isa::isa_name,                                                             \
                  InstructionClass::cls,                                                     \
                  feature,                                                                   \
                  id,                                                                        \
                  simd_id,                                                                   \
                  behaviour,                                                                 \
                  operand_count(operand_specs(__VA_ARGS__)),                                 \
                  operand_specs(__VA_ARGS__)},

// Every mnemonic of one ISA's table, in table order.
std::span<const InstructionSpec> instruction_table(Isa isa);

// The form bit of an operand (kGp64 for rax, kMem64 | kMem for a qword memory operand...).
std::uint32_t operand_form(const Operand& operand);
// "a 64-bit general-purpose register", for error messages.
std::string operand_form_name(const Operand& operand);
std::string operand_forms_text(std::uint32_t forms);

}  // namespace spongegen
