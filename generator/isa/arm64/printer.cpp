// arm64's assembler syntaxes: operands as the GNU assembler text prints and the reader
// reads them, and instructions as the Go assembler spells them.
#include <fmt/format.h>

#include <algorithm>
#include <cctype>

#include "isa/arm64/arm64.hpp"
#include "isa/arm64/target_parts.hpp"
#include "program/instruction_table.hpp"
#include "readers/gas_syntax.hpp"
#include "writers/gas_writer.hpp"
#include "writers/go_writer.hpp"

namespace spongegen::arm64 {

using readers::looks_numeric;
using readers::macro_argument;
using readers::parse_integer;
using readers::split_operands;
using readers::starts_with;
using readers::trim;

namespace {

Reg reg(std::string_view name) {
  return readers::named_register("arm64", name, parse_register);
}

Operand read_operand(std::string text) {
  if (text.front() == '{') text = text.substr(1, text.size() - 2);
  if (text.front() == '#') {
    const auto value = parse_integer(std::string_view(text).substr(1));
    if (!value) throw GenerationError("immediate '" + text + "' is not a 64-bit integer");
    return Imm{*value};
  }
  if (text.front() == '[') {
    const bool pre_index = text.back() == '!';
    std::string_view inside(text);
    inside = inside.substr(1, inside.find(']') - 1);
    const auto parts = split_operands(inside);
    Mem mem{reg(parts.at(0))};
    if (parts.size() > 1) {
      const auto disp = parse_integer(std::string_view(parts[1]).substr(1));
      if (!disp) throw GenerationError("unreadable offset");
      mem.disp = static_cast<std::int32_t>(*disp);
    }
    if (pre_index) mem.addressing = Addressing::pre_index;
    return mem;
  }
  return reg(text);
}

// "ror #19" -> (ror, 19), or nothing.
std::optional<std::pair<Shift, std::uint8_t>> parse_shift(std::string_view text) {
  for (Shift shift : {Shift::lsl, Shift::lsr, Shift::asr, Shift::ror}) {
    const std::string prefix = std::string(shift_name(shift)) + " #";
    if (!starts_with(text, prefix)) continue;
    const auto amount = parse_integer(text.substr(prefix.size()));
    if (!amount || *amount < 0 || *amount > 63) throw GenerationError("unreadable shift");
    return std::make_pair(shift, static_cast<std::uint8_t>(*amount));
  }
  return std::nullopt;
}

// A register Go does not let an ABI0 function on arm64 write, or nothing.
const char* reserved_arm64_register(const Reg& reg) {
  if (reg.cls == RegClass::sp) return "RSP belongs to the Go toolchain, which allocates the frame";
  if (reg.cls != RegClass::gp64 && reg.cls != RegClass::gp32) return nullptr;
  switch (reg.index) {
    case 18:
      return "R18 is the platform register";
    case 27:
      return "R27 is the Go assembler's temporary";
    case 28:
      return "R28 holds Go's goroutine pointer g";
    case 29:
      return "R29 is the frame pointer the toolchain's epilogue restores";
    case 30:
      return "R30 is the link register, which a leaf's epilogue does not reload";
    default:
      return nullptr;
  }
}

std::string go_arm64_register(const Reg& reg) {
  switch (reg.cls) {
    case RegClass::gp64:
    case RegClass::gp32:
      return reg.index == 31 ? "ZR" : fmt::format("R{}", reg.index);
    case RegClass::sp:
      return "RSP";
    case RegClass::fp64:
    case RegClass::fp128:
      return fmt::format("F{}", reg.index);
    case RegClass::vec:
      return fmt::format("V{}.{}", reg.index, reg.arrangement == Arrangement::d2 ? "D2" : "B16");
    default:
      throw GenerationError("not an arm64 register");
  }
}

std::string go_arm64_memory(const Program& program, const Function& function,
                            const Instruction& instruction, const Mem& mem) {
  if (mem.addressing == Addressing::go_argument) {
    const std::size_t index = static_cast<std::size_t>(mem.disp / 8);
    if (mem.disp % 8 != 0 || index >= function.shape.parameters.size()) {
      writers::go_refuse(program, function, instruction,
                         fmt::format("no pointer argument at {}(FP)", mem.disp));
    }
    return fmt::format("{}+{}(FP)", function.shape.parameters[index].name, mem.disp);
  }
  if (mem.addressing == Addressing::pc_relative) {
    writers::go_refuse(program, function, instruction,
                       "arm64 loads no table through a PC-relative operand");
  }
  return fmt::format("{}({})", writers::go_offset_text(mem.disp), go_arm64_register(mem.base));
}

}  // namespace

std::string gas_operand(const Program& program, const Operand& operand) {
  if (const Reg* reg = std::get_if<Reg>(&operand)) return register_name(*reg);
  if (const ShiftedReg* shifted = std::get_if<ShiftedReg>(&operand)) {
    return fmt::format("{}, {} #{}", register_name(shifted->reg), shift_name(shifted->shift),
                       shifted->amount);
  }
  if (const Imm* imm = std::get_if<Imm>(&operand)) return fmt::format("#{}", imm->value);
  if (const LabelRef* label = std::get_if<LabelRef>(&operand)) {
    return writers::local_label(program, label->id);
  }
  if (const Mem* mem = std::get_if<Mem>(&operand)) {
    const std::string base = register_name(mem->base);
    switch (mem->addressing) {
      case Addressing::offset:
        return mem->disp == 0 ? fmt::format("[{}]", base)
                              : fmt::format("[{}, #{}]", base, mem->disp);
      case Addressing::pre_index:
        return fmt::format("[{}, #{}]!", base, mem->disp);
      case Addressing::post_index:
        return fmt::format("[{}], #{}", base, mem->disp);
      case Addressing::pc_relative:
      case Addressing::go_argument:
        break;
    }
    throw GenerationError("arm64 memory operands are register-based; use adr for labels");
  }
  throw GenerationError("operand kind not available on arm64");
}

std::vector<Operand> read_operands(const std::vector<std::string>& texts, OperandReader& reader) {
  const auto operand = [&](const std::string& text) {
    if (auto macro = reader.macro_operand(text)) return *macro;
    return read_operand(text);
  };
  std::vector<Operand> operands;
  for (std::size_t i = 0; i < texts.size(); ++i) {
    // Post-index: "[x10], #8" reads as two operands.
    if (i + 1 < texts.size() && texts[i].front() == '[' && texts[i].back() == ']' &&
        texts[i + 1].front() == '#') {
      Mem mem = std::get<Mem>(operand(texts[i]));
      const auto disp = parse_integer(texts[i + 1].substr(1));
      if (!disp) throw GenerationError("unreadable post-index");
      mem.disp = static_cast<std::int32_t>(*disp);
      mem.addressing = Addressing::post_index;
      operands.push_back(mem);
      ++i;
      continue;
    }
    // A shifted register: "x2, ror #19" reads as two operands.
    if (i + 1 < texts.size()) {
      if (auto shift = parse_shift(texts[i + 1])) {
        operands.push_back(ShiftedReg{reg(texts[i]), shift->first, shift->second});
        ++i;
        continue;
      }
    }
    operands.push_back(operand(texts[i]));
  }
  return operands;
}

// The Go spelling of an arm64 instruction: the mnemonic by operand class (MOVD, FMOVD and
// FMOVQ for ldr and str; LDP, FLDPD, FLDPQ), .P and .W for post- and pre-indexing, and the
// operands sources first.
std::string go_instruction(const Program& program, const Function& function,
                           const Instruction& instruction) {
  const InstructionSpec& spec = instruction_spec(instruction.mnemonic);
  for (std::size_t i = 0; i < instruction.operands.size() && i < spec.operand_count; ++i) {
    const Access access = spec.operands[i].access;
    const Reg* reg = std::get_if<Reg>(&instruction.operands[i]);
    if (reg == nullptr || (access != Access::write && access != Access::read_write)) continue;
    if (const char* why = reserved_arm64_register(*reg)) {
      writers::go_refuse(program, function, instruction,
                         fmt::format("writes {}: {}", go_arm64_register(*reg), why));
    }
  }
  const auto& ops = instruction.operands;
  const auto r = [&](std::size_t i) { return go_arm64_register(std::get<Reg>(ops.at(i))); };
  const auto second_source = [&](std::size_t i) {
    if (const auto* shifted = std::get_if<ShiftedReg>(&ops.at(i))) {
      static constexpr const char* kShift[] = {"<<", ">>", "->", "@>"};
      return fmt::format("{}{}{}", go_arm64_register(shifted->reg),
                         kShift[static_cast<int>(shifted->shift)], shifted->amount);
    }
    if (const auto* imm = std::get_if<Imm>(&ops.at(i))) return fmt::format("${}", imm->value);
    return r(i);
  };
  const auto label = [&](std::size_t i) {
    return program.label_names.at(std::get<LabelRef>(ops.at(i)).id);
  };
  const auto memory = [&](std::size_t i) {
    return go_arm64_memory(program, function, instruction, std::get<Mem>(ops.at(i)));
  };
  const auto indexing = [&](std::size_t i) {
    switch (std::get<Mem>(ops.at(i)).addressing) {
      case Addressing::post_index:
        return std::string(".P");
      case Addressing::pre_index:
        return std::string(".W");
      default:
        return std::string();
    }
  };
  const auto load_store = [&](const Reg& reg) {
    if (reg.cls == RegClass::fp64) return std::string("FMOVD");
    if (reg.cls == RegClass::fp128) return std::string("FMOVQ");
    return std::string("MOVD");
  };
  const auto pair = [&](const Reg& reg, const char* gp, const char* fp64, const char* fp128) {
    if (reg.cls == RegClass::fp64) return std::string(fp64);
    if (reg.cls == RegClass::fp128) return std::string(fp128);
    return std::string(gp);
  };
  const bool vector = !ops.empty() && std::holds_alternative<Reg>(ops[0]) &&
                      std::get<Reg>(ops[0]).cls == RegClass::vec;
  switch (instruction.mnemonic) {
    case Mnemonic::arm64_ldr:
      return fmt::format("{}{} {}, {}", load_store(std::get<Reg>(ops[0])), indexing(1), memory(1),
                         r(0));
    case Mnemonic::arm64_str:
      return fmt::format("{}{} {}, {}", load_store(std::get<Reg>(ops[0])), indexing(1), r(0),
                         memory(1));
    case Mnemonic::arm64_ldp:
      return fmt::format("{}{} {}, ({}, {})", pair(std::get<Reg>(ops[0]), "LDP", "FLDPD", "FLDPQ"),
                         indexing(2), memory(2), r(0), r(1));
    case Mnemonic::arm64_stp:
      return fmt::format("{}{} ({}, {}), {}", pair(std::get<Reg>(ops[0]), "STP", "FSTPD", "FSTPQ"),
                         indexing(2), r(0), r(1), memory(2));
    case Mnemonic::arm64_ld1r:
      return fmt::format("VLD1R{} {}, [{}]", indexing(1), memory(1), r(0));
    case Mnemonic::arm64_adr:
      // Go emits adrp + add for a table's address.
      return fmt::format("MOVD ${}<>(SB), {}", label(1), r(0));
    case Mnemonic::arm64_mov:
      return fmt::format("MOVD {}, {}", second_source(1), r(0));
    case Mnemonic::arm64_b:
      return "B " + label(0);
    case Mnemonic::arm64_cbnz:
      return fmt::format("CBNZ {}, {}", r(0), label(1));
    case Mnemonic::arm64_cbz:
      return fmt::format("CBZ {}, {}", r(0), label(1));
    case Mnemonic::arm64_ret:
      return "RET";
    case Mnemonic::arm64_hint:
      writers::go_refuse(
          program, function, instruction,
          "not in a Go ABI0 entry: Go binaries carry no BTI or pointer authentication");
    case Mnemonic::arm64_xar:
      return fmt::format("VXAR ${}, {}, {}, {}", std::get<Imm>(ops.at(3)).value, r(2), r(1), r(0));
    case Mnemonic::arm64_eor3:
    case Mnemonic::arm64_bcax:
      return fmt::format("V{} {}, {}, {}, {}",
                         instruction.mnemonic == Mnemonic::arm64_eor3 ? "EOR3" : "BCAX", r(3), r(2),
                         r(1), r(0));
    case Mnemonic::arm64_rax1:
    case Mnemonic::arm64_zip1:
      return fmt::format("V{} {}, {}, {}",
                         instruction.mnemonic == Mnemonic::arm64_rax1 ? "RAX1" : "ZIP1", r(2), r(1),
                         r(0));
    default:
      break;
  }
  if (ops.size() == 3 && std::holds_alternative<Reg>(ops[1])) {
    // Three-operand data processing: dst, a, b -> OP b, a, dst (vector forms V-prefixed).
    std::string text(spec.text);
    std::transform(text.begin(), text.end(), text.begin(),
                   [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
    return fmt::format("{}{} {}, {}, {}", vector ? "V" : "", text, second_source(2), r(1), r(0));
  }
  writers::go_refuse(program, function, instruction,
                     "the instruction has no Go arm64 form in the writer");
}

}  // namespace spongegen::arm64
