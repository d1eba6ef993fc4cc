// How each wasm32 row becomes WebAssembly operations: one table, read by the .wat writer,
// the .wat reader and the binary encoder, so the text and the bytes lower a row the same
// way. Also the functions' locals as the three of them number, type and name them, and the
// operand checks they share.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "program/instruction_table.hpp"
#include "program/program.hpp"

namespace spongegen::wasm32 {

// A row of isa/wasm32/instructions.def: its text and operand positions.
struct Row {
  Mnemonic mnemonic;
  std::string_view text;
  std::size_t operand_count;
  std::array<OperandSpec, kMaxOperands> operands;
};
bool is_wasm32(Mnemonic mnemonic);
std::span<const Row> rows();
const Row& row(Mnemonic mnemonic);

// One WebAssembly operation of a row's lowering, or the local.get or local.set around it.
enum class StepKind : std::uint8_t {
  get,            // local.get of register operand `operand`
  set,            // local.set of register operand `operand`
  base,           // local.get of memory operand `operand`'s base
  op,             // the operation, no immediate
  memory_op,      // the operation with the memarg of memory operand `operand`
  lane_op,        // memory_op, then the lane of immediate operand 3
  i64_const,      // i64.const of immediate operand `operand`
  i32_const,      // i32.const of immediate operand `operand`
  splat_const,    // v128.const i64x2 of immediate operand `operand`, twice
  table_address,  // i32.const of the address of table label operand `operand`
  label_op,       // block or loop of label operand `operand`, with no result
  branch_op,      // br or br_if to label operand `operand`, by its relative depth
};

struct Opcode {
  bool simd = false;       // after the 0xfd prefix, as a ULEB128
  std::uint32_t code = 0;  // a single byte otherwise
};

struct Step {
  StepKind kind;
  int operand = -1;
  std::string_view text = {};  // the operation's text (op, memory_op, lane_op, label_op, branch_op)
  Opcode opcode = {};
  std::uint32_t align_log2 = 0;  // memory_op and lane_op: the natural alignment, as wabt writes
};

// The opcodes of the plumbing and the constants.
inline constexpr Opcode kLocalGet{false, 0x20};
inline constexpr Opcode kLocalSet{false, 0x21};
inline constexpr Opcode kI32Const{false, 0x41};
inline constexpr Opcode kI64Const{false, 0x42};
inline constexpr Opcode kV128Const{true, 0x0c};
inline constexpr Opcode kEnd{false, 0x0b};
inline constexpr std::uint8_t kEmptyBlockType = 0x40;

const std::vector<Step>& lowering(Mnemonic mnemonic);

// WebAssembly's value types, by their binary encoding.
enum class ValueType : std::uint8_t { i32 = 0x7f, i64 = 0x7e, v128 = 0x7b };
std::string_view value_type_name(ValueType type);

// One function's locals: the parameters, the scalar locals, the v128 locals.
struct Locals {
  std::vector<ValueType> types;    // by local index, the parameters first
  std::vector<std::string> names;  // "$state", "$x5", "$v0"
  int parameters = 0;
  int scalars = 0;  // parameters and scalar locals: the index of v128 local 0

  std::uint32_t index(const Reg& reg) const;
};

// Checks every instruction's operands against its row and the lowering's ranges, and lays
// out the locals; throws a GenerationError naming the instruction.
Locals check_function(const Program& program, const Function& function);

// "i64.xor $x5, $x6, $x7", for messages.
std::string describe(const Program& program, const Function& function,
                     const Instruction& instruction);
[[noreturn]] void refuse(const Program& program, const Function& function,
                         const Instruction& instruction, const std::string& why);

// The module's function types, in first-use order (as the .wat declares them and wabt
// numbers them): each one's parameter count (every parameter is an i32, no result), and
// each function's type.
struct FunctionTypes {
  std::vector<std::size_t> parameter_counts;
  std::vector<std::uint32_t> of_function;
};
FunctionTypes function_types(const Program& program);

// Each table's address in the data segment, by Program::tables' order.
std::vector<std::uint32_t> table_addresses(const Program& program);
// The address of the table labelled `label`; throws when no table has that label.
std::uint32_t table_address(const Program& program, LabelId label);

}  // namespace spongegen::wasm32
