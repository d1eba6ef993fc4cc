#include "isa/wasm32/lowering.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <optional>

#include "isa/wasm32/wasm32.hpp"

namespace spongegen::wasm32 {
namespace {

#define SPONGEGEN_WASM32(name, text, cls, feature, behaviour, ...)              \
  Row{Mnemonic::wasm32_##name, text, operand_count(operand_specs(__VA_ARGS__)), \
      operand_specs(__VA_ARGS__)},
const std::vector<Row> kRows = {
#include "isa/wasm32/instructions.def"
};
#undef SPONGEGEN_WASM32

std::size_t row_index(Mnemonic mnemonic) {
  return static_cast<std::size_t>(mnemonic) - static_cast<std::size_t>(kRows.front().mnemonic);
}

constexpr Opcode op(std::uint32_t code) {
  return {false, code};
}
constexpr Opcode simd(std::uint32_t code) {
  return {true, code};
}

Step get(int operand) {
  return {StepKind::get, operand};
}
Step set(int operand) {
  return {StepKind::set, operand};
}
Step base(int operand) {
  return {StepKind::base, operand};
}
Step operation(std::string_view text, Opcode opcode) {
  return {StepKind::op, -1, text, opcode};
}
Step memory(std::string_view text, Opcode opcode, int operand, std::uint32_t align_log2) {
  return {StepKind::memory_op, operand, text, opcode, align_log2};
}

// Every row's lowering, in table order.
std::vector<std::vector<Step>> make_lowerings() {
  std::vector<std::vector<Step>> out(kRows.size());
  const auto put = [&](Mnemonic mnemonic, std::vector<Step> steps) {
    out.at(row_index(mnemonic)) = std::move(steps);
  };
  const auto binary = [&](Mnemonic mnemonic, std::string_view text, Opcode opcode) {
    put(mnemonic, {get(1), get(2), operation(text, opcode), set(0)});
  };
  put(Mnemonic::wasm32_i64_load, {base(1), memory("i64.load", op(0x29), 1, 3), set(0)});
  put(Mnemonic::wasm32_i64_store, {base(1), get(0), memory("i64.store", op(0x37), 1, 3)});
  binary(Mnemonic::wasm32_i64_xor, "i64.xor", op(0x85));
  binary(Mnemonic::wasm32_i64_and, "i64.and", op(0x83));
  binary(Mnemonic::wasm32_i64_or, "i64.or", op(0x84));
  put(Mnemonic::wasm32_i64_xor_const,
      {get(1), {StepKind::i64_const, 2}, operation("i64.xor", op(0x85)), set(0)});
  put(Mnemonic::wasm32_i64_rotl,
      {get(1), {StepKind::i64_const, 2}, operation("i64.rotl", op(0x89)), set(0)});
  put(Mnemonic::wasm32_i64_rotr,
      {get(1), {StepKind::i64_const, 2}, operation("i64.rotr", op(0x8a)), set(0)});
  put(Mnemonic::wasm32_i64_copy, {get(1), set(0)});
  put(Mnemonic::wasm32_i32_add_const,
      {get(1), {StepKind::i32_const, 2}, operation("i32.add", op(0x6a)), set(0)});
  put(Mnemonic::wasm32_i32_const, {{StepKind::i32_const, 1}, set(0)});
  put(Mnemonic::wasm32_i32_table_address, {{StepKind::table_address, 1}, set(0)});
  put(Mnemonic::wasm32_i32_wrap_i64, {get(1), operation("i32.wrap_i64", op(0xa7)), set(0)});
  put(Mnemonic::wasm32_block, {{StepKind::label_op, 0, "block", op(0x02)}});
  put(Mnemonic::wasm32_loop, {{StepKind::label_op, 0, "loop", op(0x03)}});
  put(Mnemonic::wasm32_end, {operation("end", kEnd)});
  put(Mnemonic::wasm32_br, {{StepKind::branch_op, 0, "br", op(0x0c)}});
  put(Mnemonic::wasm32_br_if, {get(1), {StepKind::branch_op, 0, "br_if", op(0x0d)}});
  put(Mnemonic::wasm32_br_if_eqz,
      {get(1), operation("i32.eqz", op(0x45)), {StepKind::branch_op, 0, "br_if", op(0x0d)}});
  put(Mnemonic::wasm32_return, {operation("return", op(0x0f))});
  put(Mnemonic::wasm32_v128_load, {base(1), memory("v128.load", simd(0x00), 1, 4), set(0)});
  put(Mnemonic::wasm32_v128_store, {base(1), get(0), memory("v128.store", simd(0x0b), 1, 4)});
  put(Mnemonic::wasm32_v128_load64_zero,
      {base(1), memory("v128.load64_zero", simd(0x5d), 1, 3), set(0)});
  put(Mnemonic::wasm32_v128_load64_lane,
      {base(1), get(2), {StepKind::lane_op, 1, "v128.load64_lane", simd(0x57), 3}, set(0)});
  binary(Mnemonic::wasm32_v128_xor, "v128.xor", simd(0x51));
  binary(Mnemonic::wasm32_v128_and, "v128.and", simd(0x4e));
  binary(Mnemonic::wasm32_v128_or, "v128.or", simd(0x50));
  binary(Mnemonic::wasm32_v128_andnot, "v128.andnot", simd(0x4f));
  put(Mnemonic::wasm32_i64x2_shl,
      {get(1), {StepKind::i32_const, 2}, operation("i64x2.shl", simd(0xcb)), set(0)});
  put(Mnemonic::wasm32_i64x2_shr_u,
      {get(1), {StepKind::i32_const, 2}, operation("i64x2.shr_u", simd(0xcd)), set(0)});
  put(Mnemonic::wasm32_v128_xor_splat_const,
      {get(1), {StepKind::splat_const, 2}, operation("v128.xor", simd(0x51)), set(0)});
  for (std::size_t i = 0; i < out.size(); ++i) {
    if (out[i].empty()) {
      throw GenerationError("wasm32 row '" + std::string(kRows[i].text) + "' has no lowering");
    }
  }
  return out;
}

// The characters of a WebAssembly text identifier after its `$`.
bool is_identifier(std::string_view name) {
  constexpr std::string_view kPunctuation = "!#$%&'*+-./:<=>?@\\^_`|~";
  return !name.empty() && std::all_of(name.begin(), name.end(), [&](char c) {
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
           kPunctuation.find(c) != std::string_view::npos;
  });
}

std::string local_name(const Function& function, const Reg& reg) {
  const std::size_t parameters = function.shape.parameters.size();
  if (reg.cls == RegClass::gp32 && reg.index < parameters) {
    return "$" + function.shape.parameters[reg.index].name;
  }
  return register_name(reg);
}

std::string label_name(const Program& program, LabelId id) {
  return id < program.label_names.size() ? "$" + program.label_names[id]
                                         : fmt::format("(label {})", id);
}

}  // namespace

bool is_wasm32(Mnemonic mnemonic) {
  return mnemonic >= kRows.front().mnemonic && mnemonic <= kRows.back().mnemonic;
}

std::span<const Row> rows() {
  return kRows;
}

const Row& row(Mnemonic mnemonic) {
  if (!is_wasm32(mnemonic)) throw GenerationError("not a wasm32 instruction");
  return kRows[row_index(mnemonic)];
}

const std::vector<Step>& lowering(Mnemonic mnemonic) {
  static const std::vector<std::vector<Step>> kLowerings = make_lowerings();
  if (!is_wasm32(mnemonic)) throw GenerationError("not a wasm32 instruction");
  return kLowerings[row_index(mnemonic)];
}

std::string_view value_type_name(ValueType type) {
  switch (type) {
    case ValueType::i32:
      return "i32";
    case ValueType::i64:
      return "i64";
    case ValueType::v128:
      return "v128";
  }
  throw GenerationError("unknown value type");
}

std::uint32_t Locals::index(const Reg& reg) const {
  return reg.cls == RegClass::vec ? static_cast<std::uint32_t>(scalars) + reg.index : reg.index;
}

std::string describe(const Program& program, const Function& function,
                     const Instruction& instruction) {
  std::string text = is_wasm32(instruction.mnemonic) ? std::string(row(instruction.mnemonic).text)
                                                     : std::string("(not a wasm32 row)");
  for (std::size_t i = 0; i < instruction.operands.size(); ++i) {
    const Operand& operand = instruction.operands[i];
    text += i == 0 ? " " : ", ";
    if (const Reg* reg = std::get_if<Reg>(&operand)) {
      text += local_name(function, *reg);
    } else if (const Mem* mem = std::get_if<Mem>(&operand)) {
      text += fmt::format("[{} + {}]", local_name(function, mem->base), mem->disp);
    } else if (const Imm* imm = std::get_if<Imm>(&operand)) {
      text += fmt::format("{}", imm->value);
    } else if (const LabelRef* label = std::get_if<LabelRef>(&operand)) {
      text += label_name(program, label->id);
    } else {
      text += "(an operand wasm32 has no form for)";
    }
  }
  return text;
}

void refuse(const Program& program, const Function& function, const Instruction& instruction,
            const std::string& why) {
  throw GenerationError(fmt::format("kernel {}, function {}, instruction '{}': {}",
                                    program.kernel_name, function.symbol,
                                    describe(program, function, instruction), why));
}

FunctionTypes function_types(const Program& program) {
  FunctionTypes types;
  for (const Function& function : program.functions) {
    const std::size_t count = function.shape.parameters.size();
    const auto known =
        std::find(types.parameter_counts.begin(), types.parameter_counts.end(), count);
    types.of_function.push_back(static_cast<std::uint32_t>(known - types.parameter_counts.begin()));
    if (known == types.parameter_counts.end()) types.parameter_counts.push_back(count);
  }
  return types;
}

std::vector<std::uint32_t> table_addresses(const Program& program) {
  std::vector<std::uint32_t> addresses;
  std::uint64_t at = kTableBase;
  for (const QuadTable& table : program.tables) {
    addresses.push_back(static_cast<std::uint32_t>(at));
    at += 8 * table.values.size();
    if (at > std::uint64_t{kImportedMemoryPages} * 65536) {
      throw GenerationError(
          fmt::format("kernel {}: the tables take {} bytes from {}, more than "
                      "the imported memory's {} pages hold",
                      program.kernel_name, at - kTableBase, kTableBase, kImportedMemoryPages));
    }
  }
  return addresses;
}

std::uint32_t table_address(const Program& program, LabelId label) {
  const std::vector<std::uint32_t> addresses = table_addresses(program);
  for (std::size_t i = 0; i < program.tables.size(); ++i) {
    if (program.tables[i].label == label) return addresses[i];
  }
  throw GenerationError(label_name(program, label) + " labels no table of the program");
}

Locals check_function(const Program& program, const Function& function) {
  Locals locals;
  locals.parameters = static_cast<int>(function.shape.parameters.size());
  for (const Parameter& parameter : function.shape.parameters) {
    if (!is_identifier(parameter.name)) {
      throw GenerationError(
          fmt::format("kernel {}, function {}: parameter '{}' is no WebAssembly "
                      "text identifier",
                      program.kernel_name, function.symbol, parameter.name));
    }
    locals.types.push_back(ValueType::i32);
  }
  if (!is_identifier(function.symbol)) {
    throw GenerationError(fmt::format("kernel {}: function '{}' is no WebAssembly text identifier",
                                      program.kernel_name, function.symbol));
  }
  std::vector<std::optional<ValueType>> scalars(locals.types.begin(), locals.types.end());
  int vectors = 0;
  for (const Item& item : function.items) {
    if (std::holds_alternative<Cfi>(item)) {
      throw GenerationError(
          fmt::format("kernel {}, function {}: WebAssembly has no call frame "
                      "information",
                      program.kernel_name, function.symbol));
    }
    const auto* instruction = std::get_if<Instruction>(&item);
    if (instruction == nullptr) continue;
    const auto fail = [&](const std::string& why) { refuse(program, function, *instruction, why); };
    if (!is_wasm32(instruction->mnemonic)) fail("not a wasm32 instruction");
    const Row& spec = row(instruction->mnemonic);
    if (instruction->operands.size() != spec.operand_count) {
      fail(fmt::format("{} operands; the row takes {}", instruction->operands.size(),
                       spec.operand_count));
    }
    // An i32 or i64 local at `index`: the parameters are i32.
    const auto scalar = [&](const Reg& reg, std::size_t i) {
      const ValueType type = reg.cls == RegClass::gp32 ? ValueType::i32 : ValueType::i64;
      if (reg.index >= scalars.size()) scalars.resize(reg.index + 1);
      std::optional<ValueType>& known = scalars[reg.index];
      if (known && *known != type) {
        fail(fmt::format("operand {} uses local {} as an {}, which is {} {}", i + 1, reg.index,
                         value_type_name(type),
                         reg.index < locals.parameters ? "a parameter, an" : "elsewhere an",
                         value_type_name(*known)));
      }
      known = type;
    };
    for (std::size_t i = 0; i < spec.operand_count; ++i) {
      const Operand& operand = instruction->operands[i];
      const std::uint32_t forms = spec.operands[i].forms;
      if (const Reg* reg = std::get_if<Reg>(&operand); reg && reg->cls == RegClass::sp) {
        fail(
            fmt::format("operand {} is the stack pointer, a register of the prover's that no "
                        "WebAssembly operation reaches",
                        i + 1));
      }
      if ((operand_form(operand) & forms) == 0) {
        fail(fmt::format("operand {} is {}; the row takes {}", i + 1, operand_form_name(operand),
                         operand_forms_text(forms)));
      }
      if (const Reg* reg = std::get_if<Reg>(&operand)) {
        if (reg->cls == RegClass::vec) {
          vectors = std::max(vectors, reg->index + 1);
        } else {
          scalar(*reg, i);
        }
      } else if (const Mem* mem = std::get_if<Mem>(&operand)) {
        if (mem->addressing != Addressing::offset || mem->label != kNoLabel) {
          fail("a wasm32 memory operand is an i32 local plus a constant offset");
        }
        if (mem->base.cls == RegClass::sp) {
          fail(
              "the base is the stack pointer, a register of the prover's that no WebAssembly "
              "operation reaches");
        }
        if (mem->base.cls != RegClass::gp32) fail("the base of a memory operand is an i32 local");
        if (mem->disp < 0) {
          fail(fmt::format("offset {} is negative: a memarg's offset is unsigned", mem->disp));
        }
        scalar(mem->base, i);
      } else if (const Imm* imm = std::get_if<Imm>(&operand)) {
        const auto range = [&](std::int64_t low, std::int64_t high, std::string_view what) {
          if (imm->value < low || imm->value > high) {
            fail(fmt::format("{} {} is outside {}..{}", what, imm->value, low, high));
          }
        };
        switch (instruction->mnemonic) {
          case Mnemonic::wasm32_i64_rotl:
          case Mnemonic::wasm32_i64_rotr:
            range(0, 63, "the rotation");
            break;
          case Mnemonic::wasm32_i64x2_shl:
          case Mnemonic::wasm32_i64x2_shr_u:
            range(0, 63, "the shift");
            break;
          case Mnemonic::wasm32_v128_load64_lane:
            range(0, 1, "the lane");
            break;
          case Mnemonic::wasm32_i32_add_const:
          case Mnemonic::wasm32_i32_const:
            range(INT32_MIN, INT32_MAX, "the i32 constant");
            break;
          default:
            break;
        }
      } else if (const LabelRef* label = std::get_if<LabelRef>(&operand)) {
        if (label->id >= program.label_names.size() ||
            !is_identifier(program.label_names[label->id])) {
          fail(fmt::format("operand {} is no label named as a WebAssembly text identifier", i + 1));
        }
        if (instruction->mnemonic == Mnemonic::wasm32_i32_table_address) {
          try {
            table_address(program, label->id);
          } catch (const GenerationError& error) {
            fail(error.what());
          }
        }
      }
    }
  }
  locals.scalars = static_cast<int>(scalars.size());
  for (std::size_t i = 0; i < scalars.size(); ++i) {
    if (i >= locals.types.size()) locals.types.push_back(scalars[i].value_or(ValueType::i64));
    locals.names.push_back(i < function.shape.parameters.size()
                               ? "$" + function.shape.parameters[i].name
                               : register_name(locals.types[i] == ValueType::i32
                                                   ? w(static_cast<int>(i))
                                                   : x(static_cast<int>(i))));
  }
  for (int k = 0; k < vectors; ++k) {
    locals.types.push_back(ValueType::v128);
    locals.names.push_back(fmt::format("$v{}", k));
  }
  return locals;
}

std::string register_name(const Reg& reg) {
  if (reg.cls == RegClass::gp32) return fmt::format("$w{}", reg.index);
  if (reg.cls == RegClass::gp64) return fmt::format("$x{}", reg.index);
  if (reg.cls == RegClass::vec) return fmt::format("$v{}", reg.index);
  if (reg.cls == RegClass::sp) return "sp";
  return fmt::format("(register class {}, index {})", static_cast<int>(reg.cls), reg.index);
}

std::optional<Reg> parse_register(std::string_view name) {
  if (name == "sp") return kStackPointer;
  if (name.size() < 3 || name[0] != '$') return std::nullopt;
  const std::string_view digits = name.substr(2);
  if (digits.size() > 3 || (digits.size() > 1 && digits[0] == '0')) return std::nullopt;
  int index = 0;
  for (const char c : digits) {
    if (c < '0' || c > '9') return std::nullopt;
    index = index * 10 + (c - '0');
  }
  if (index > 255) return std::nullopt;
  switch (name[1]) {
    case 'w':
      return w(index);
    case 'x':
      return x(index);
    case 'v':
      return v(index);
    default:
      return std::nullopt;
  }
}

}  // namespace spongegen::wasm32
