// amd64's assembler syntaxes: operands as the GNU assembler text prints and the reader
// reads them, and instructions as the Go assembler spells them.
#include <fmt/format.h>

#include <algorithm>
#include <cctype>

#include "isa/amd64/amd64.hpp"
#include "isa/amd64/target_parts.hpp"
#include "program/instruction_table.hpp"
#include "readers/gas_syntax.hpp"
#include "writers/gas_writer.hpp"
#include "writers/go_writer.hpp"

namespace spongegen::amd64 {

using readers::looks_numeric;
using readers::macro_argument;
using readers::parse_integer;
using readers::split_operands;
using readers::starts_with;
using readers::trim;

namespace {

Reg reg(std::string_view name) {
  return readers::named_register("amd64", name, parse_register);
}

Operand read_operand(const std::string& text, OperandReader& reader) {
  std::optional<int> bytes;
  for (int size : kMemoryOperandSizes) {
    if (starts_with(text, std::string(memory_size_keyword(size)) + " [")) bytes = size;
  }
  if (bytes) {
    std::string_view inside(text);
    inside = inside.substr(inside.find('[') + 1);
    inside = inside.substr(0, inside.size() - 1);
    Mem mem{kNoBase};
    mem.bytes = static_cast<std::uint8_t>(*bytes);
    // base [+ LOCAL(label)] [+|- disp]
    std::size_t pos = inside.find(' ');
    const std::string_view base = inside.substr(0, pos);
    std::string_view rest = pos == std::string_view::npos ? "" : inside.substr(pos);
    if (base == "rip") {
      mem.addressing = Addressing::pc_relative;
      rest = trim(rest.substr(rest.find('+') + 1));
      const std::size_t close = rest.find(')');
      mem.label = reader.label(*macro_argument(rest.substr(0, close + 1), "LOCAL"));
      rest = rest.substr(close + 1);
    } else {
      mem.base = reg(base);
    }
    rest = trim(rest);
    if (!rest.empty()) {
      const bool negative = rest.front() == '-';
      const auto disp = parse_integer(rest.substr(1));
      if (!disp) throw GenerationError("unreadable displacement '" + std::string(rest) + "'");
      const std::int64_t value = negative ? -*disp : *disp;
      if (value < INT32_MIN || value > INT32_MAX) {
        throw GenerationError("displacement '" + std::string(rest) + "' does not fit in 32 bits");
      }
      mem.disp = static_cast<std::int32_t>(value);
    }
    return mem;
  }
  if (auto value = parse_integer(text)) return Imm{*value};
  if (looks_numeric(text))
    throw GenerationError("immediate '" + text + "' is not a 64-bit integer");
  return reg(text);
}

std::string go_register(const Reg& reg) {
  static constexpr const char* kGp[] = {"AX", "CX", "DX", "BX", "SP", "BP", "SI", "DI"};
  switch (reg.cls) {
    case RegClass::gp32:
    case RegClass::gp64:
      return reg.index < 8 ? kGp[reg.index] : fmt::format("R{}", reg.index);
    case RegClass::xmm:
      return fmt::format("X{}", reg.index);
    case RegClass::ymm:
      return fmt::format("Y{}", reg.index);
    case RegClass::zmm:
      return fmt::format("Z{}", reg.index);
    default:
      throw GenerationError("not an amd64 register");
  }
}

std::string go_operand(const Program& program, const Function& function,
                       const Instruction& instruction, const Operand& operand) {
  if (const Reg* reg = std::get_if<Reg>(&operand)) return go_register(*reg);
  if (const Imm* imm = std::get_if<Imm>(&operand)) return fmt::format("${}", imm->value);
  if (const LabelRef* label = std::get_if<LabelRef>(&operand)) {
    return program.label_names.at(label->id);
  }
  if (const Mem* mem = std::get_if<Mem>(&operand)) {
    switch (mem->addressing) {
      case Addressing::offset:
        return fmt::format("{}({})", writers::go_offset_text(mem->disp), go_register(mem->base));
      case Addressing::pc_relative:
        return fmt::format("{}{}(SB)", writers::go_table_symbol(program, mem->label),
                           mem->disp == 0 ? std::string() : fmt::format("+{}", mem->disp));
      case Addressing::go_argument: {
        const std::size_t index = static_cast<std::size_t>(mem->disp / 8);
        if (mem->disp % 8 != 0 || index >= function.shape.parameters.size()) {
          writers::go_refuse(program, function, instruction,
                             fmt::format("no pointer argument at {}(FP)", mem->disp));
        }
        return fmt::format("{}+{}(FP)", function.shape.parameters[index].name, mem->disp);
      }
      case Addressing::pre_index:
      case Addressing::post_index:
        break;
    }
    writers::go_refuse(program, function, instruction,
                       "amd64 has no pre- or post-indexed addressing");
  }
  writers::go_refuse(program, function, instruction, "the operand has no Go amd64 form");
}

// Go's mnemonic: the table's text in capitals, with the operand size as a suffix for the
// general-purpose instructions (Q for 64 bits, L for 32).
std::string go_mnemonic(const Program& program, const Function& function,
                        const Instruction& instruction) {
  const InstructionSpec& spec = instruction_spec(instruction.mnemonic);
  switch (instruction.mnemonic) {
    case Mnemonic::amd64_endbr64:
    case Mnemonic::amd64_push:
    case Mnemonic::amd64_pop:
    case Mnemonic::amd64_call:
      writers::go_refuse(program, function, instruction,
                         "not in a Go ABI0 entry: Go has no IBT, and the toolchain owns the frame");
    case Mnemonic::amd64_ret:
      return "RET";
    case Mnemonic::amd64_jmp:
      return "JMP";
    case Mnemonic::amd64_jne:
      return "JNE";
    case Mnemonic::amd64_je:
      return "JEQ";
    case Mnemonic::amd64_prefetcht0:
      return "PREFETCHT0";  // no operand size: it loads nothing
    default:
      break;
  }
  std::string text(spec.text);
  std::transform(text.begin(), text.end(), text.begin(),
                 [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  if (text[0] == 'V') return text;  // vector mnemonics carry their size in the registers
  bool gp32 = false;
  for (const Operand& operand : instruction.operands) {
    const Reg* reg = std::get_if<Reg>(&operand);
    if (reg != nullptr && reg->cls == RegClass::gp32) gp32 = true;
  }
  return text + (gp32 ? "L" : "Q");
}

// A register Go does not let an ABI0 function write, or nothing. X15 (the internal ABI's zero
// register) is undefined in ABI0: Go's internal ABI zeroes it after every call of an ABI0
// function, so a kernel may use it. R14 is undefined there too, but its prologue's stack
// check loads g into it, and the kernels leave it alone.
const char* reserved_register(const Reg& reg) {
  const bool gp = reg.cls == RegClass::gp32 || reg.cls == RegClass::gp64;
  if (gp && reg.index == 14) return "R14 holds Go's goroutine pointer g";
  if (gp && reg.index == 4) return "SP belongs to the Go toolchain, which allocates the frame";
  return nullptr;
}

void check_registers(const Program& program, const Function& function,
                     const Instruction& instruction) {
  const InstructionSpec& spec = instruction_spec(instruction.mnemonic);
  for (std::size_t i = 0; i < instruction.operands.size(); ++i) {
    const Reg* reg = std::get_if<Reg>(&instruction.operands[i]);
    if (reg == nullptr || i >= spec.operand_count) continue;
    const Access access = spec.operands[i].access;
    if (access != Access::write && access != Access::read_write) continue;
    if (const char* why = reserved_register(*reg)) {
      writers::go_refuse(program, function, instruction,
                         fmt::format("writes {}: {}", go_register(*reg), why));
    }
    if (reg->index == 5 && (reg->cls == RegClass::gp64 || reg->cls == RegClass::gp32) &&
        function.frame_bytes == 0) {
      writers::go_refuse(
          program, function, instruction,
          "writes BP, which only a function with a frame may (its prologue saves BP)");
    }
  }
}

}  // namespace

std::string gas_operand(const Program& program, const Operand& operand) {
  if (const Reg* reg = std::get_if<Reg>(&operand)) return register_name(*reg);
  if (const Imm* imm = std::get_if<Imm>(&operand)) return fmt::format("{}", imm->value);
  if (const LabelRef* label = std::get_if<LabelRef>(&operand)) {
    return writers::local_label(program, label->id);
  }
  if (const SymbolRef* symbol = std::get_if<SymbolRef>(&operand)) {
    return fmt::format("SYMBOL({})", program.functions.at(symbol->function).symbol);
  }
  if (const Mem* mem = std::get_if<Mem>(&operand)) {
    std::string address;
    if (mem->addressing == Addressing::pc_relative) {
      address = "rip + " + writers::local_label(program, mem->label);
    } else if (mem->addressing == Addressing::offset) {
      address = std::string(register_name(mem->base));
    } else if (mem->addressing == Addressing::go_argument) {
      // Only the Go writer prints the caller's frame; here it is a message's operand.
      address = fmt::format("go argument {}", mem->disp);
    } else {
      throw GenerationError("amd64 has no pre- or post-indexed addressing");
    }
    if (mem->disp > 0) address += fmt::format(" + {}", mem->disp);
    if (mem->disp < 0) address += fmt::format(" - {}", -static_cast<std::int64_t>(mem->disp));
    return std::string(memory_size_keyword(mem->bytes)) + " [" + address + "]";
  }
  throw GenerationError("operand kind not available on amd64");
}

std::vector<Operand> read_operands(const std::vector<std::string>& texts, OperandReader& reader) {
  return readers::read_each_operand(
      texts, reader, [&](const std::string& text) { return read_operand(text, reader); });
}

std::string go_instruction(const Program& program, const Function& function,
                           const Instruction& instruction) {
  check_registers(program, function, instruction);
  std::string text = go_mnemonic(program, function, instruction);
  std::vector<std::string> operands;
  for (const Operand& operand : instruction.operands)
    operands.push_back(go_operand(program, function, instruction, operand));
  // Go lists sources first, the destination last; CMP keeps Intel's order.
  if (instruction.mnemonic != Mnemonic::amd64_cmp) std::reverse(operands.begin(), operands.end());
  for (std::size_t i = 0; i < operands.size(); ++i)
    text += (i == 0 ? " " : ", ") + operands[i];
  return text;
}

}  // namespace spongegen::amd64
