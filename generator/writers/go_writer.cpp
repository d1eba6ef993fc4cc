#include "writers/go_writer.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>

#include "program/instruction_table.hpp"
#include "writers/gas_writer.hpp"

namespace spongegen::writers {
namespace {

constexpr std::size_t kCommentColumn = 48;

[[noreturn]] void refuse(const Program& program, const Function& function,
                         const Instruction& instruction, const std::string& why) {
  throw GenerationError(fmt::format("kernel {}, function {}: `{}`: {}", program.kernel_name,
                                    function.symbol, format_instruction(program, instruction),
                                    why));
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

// The table's Go symbol: `name<>` is local to the file.
std::string table_symbol(const Program& program, LabelId label) {
  return program.label_names.at(label) + "<>";
}

std::string offset_text(std::int32_t disp) {
  return disp == 0 ? std::string() : fmt::format("{}", disp);
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
        return fmt::format("{}({})", offset_text(mem->disp), go_register(mem->base));
      case Addressing::pc_relative:
        return fmt::format("{}{}(SB)", table_symbol(program, mem->label),
                           mem->disp == 0 ? std::string() : fmt::format("+{}", mem->disp));
      case Addressing::go_argument: {
        const std::size_t index = static_cast<std::size_t>(mem->disp / 8);
        if (mem->disp % 8 != 0 || index >= function.shape.parameters.size()) {
          refuse(program, function, instruction,
                 fmt::format("no pointer argument at {}(FP)", mem->disp));
        }
        return fmt::format("{}+{}(FP)", function.shape.parameters[index].name, mem->disp);
      }
      case Addressing::pre_index:
      case Addressing::post_index:
        break;
    }
    refuse(program, function, instruction, "amd64 has no pre- or post-indexed addressing");
  }
  refuse(program, function, instruction, "the operand has no Go amd64 form");
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
      refuse(program, function, instruction,
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
      refuse(program, function, instruction, fmt::format("writes {}: {}", go_register(*reg), why));
    }
    if (reg->index == 5 && (reg->cls == RegClass::gp64 || reg->cls == RegClass::gp32) &&
        function.frame_bytes == 0) {
      refuse(program, function, instruction,
             "writes BP, which only a function with a frame may (its prologue saves BP)");
    }
  }
}

// ---- arm64

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
      refuse(program, function, instruction,
             fmt::format("no pointer argument at {}(FP)", mem.disp));
    }
    return fmt::format("{}+{}(FP)", function.shape.parameters[index].name, mem.disp);
  }
  if (mem.addressing == Addressing::pc_relative) {
    refuse(program, function, instruction, "arm64 loads no table through a PC-relative operand");
  }
  return fmt::format("{}({})", offset_text(mem.disp), go_arm64_register(mem.base));
}

// The Go spelling of an arm64 instruction: the mnemonic by operand class (MOVD, FMOVD and
// FMOVQ for ldr and str; LDP, FLDPD, FLDPQ), .P and .W for post- and pre-indexing, and the
// operands sources first.
std::string format_go_arm64(const Program& program, const Function& function,
                            const Instruction& instruction) {
  const InstructionSpec& spec = instruction_spec(instruction.mnemonic);
  for (std::size_t i = 0; i < instruction.operands.size() && i < spec.operand_count; ++i) {
    const Access access = spec.operands[i].access;
    const Reg* reg = std::get_if<Reg>(&instruction.operands[i]);
    if (reg == nullptr || (access != Access::write && access != Access::read_write)) continue;
    if (const char* why = reserved_arm64_register(*reg)) {
      refuse(program, function, instruction,
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
      refuse(program, function, instruction,
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
  refuse(program, function, instruction, "the instruction has no Go arm64 form in the writer");
}

void append_comment_block(std::string& out, const std::vector<std::string>& lines) {
  for (const std::string& line : lines)
    out += line.empty() ? "//\n" : "// " + line + "\n";
}

std::string go_type(const Parameter& parameter) {
  std::string base = parameter.c_type;
  if (base.rfind("const ", 0) == 0) base = base.substr(6);
  std::string go;
  if (base == "uint64_t") {
    go = "uint64";
  } else if (base == "uint8_t") {
    go = "byte";
  } else if (base == "uint8_t* const" || base == "uint8_t*") {  // block pointers, or blocks
    go = "*byte";
  } else if (base == "size_t") {
    go = "uint64";
  } else {
    throw GenerationError("parameter " + parameter.name + ": no Go type for " + parameter.c_type);
  }
  return parameter.extent > 0 ? fmt::format("*[{}]{}", parameter.extent, go) : go;
}

std::string code_generated_header() {
  return std::string(kGoGeneratedMark) +
         "\n// Regenerate with scripts/regen (spongegen generate).\n";
}

}  // namespace

std::string format_go_instruction(const Program& program, const Function& function,
                                  const Instruction& instruction) {
  if (program.isa == Isa::arm64) return format_go_arm64(program, function, instruction);
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

std::string write_go_asm(const Program& program, std::string_view build_constraint) {
  std::string out = code_generated_header();
  out += "//\n";
  append_comment_block(out, program.header_lines);
  out += fmt::format("\n//go:build {}\n\n#include \"textflag.h\"\n", build_constraint);
  for (const Function& function : program.functions) {
    out += "\n";
    append_comment_block(out, {function.summary, c_prototype(function.symbol, function.shape)});
    const int argument_bytes = 8 * static_cast<int>(function.shape.parameters.size());
    out += fmt::format("TEXT ·{}(SB), 0, ${}-{}\n", function.symbol, function.frame_bytes,
                       argument_bytes);
    for (const Item& item : function.items) {
      if (const auto* instruction = std::get_if<Instruction>(&item)) {
        // Built by appending: `"\t" + a temporary` trips GCC 12's -Wrestrict at -O3.
        std::string line(1, '\t');
        line += format_go_instruction(program, function, *instruction);
        if (!instruction->comment.empty()) {
          const std::size_t width = line.size() + 7;  // the tab counts as 8 columns
          line += std::string(width < kCommentColumn ? kCommentColumn - width : 1, ' ');
          line += "// " + instruction->comment;
        }
        out += line + "\n";
      } else if (const auto* label = std::get_if<LabelDef>(&item)) {
        out += program.label_names.at(label->id) + ":\n";
      } else if (const auto* comment = std::get_if<Comment>(&item)) {
        out += "\t// " + comment->text + "\n";
      } else if (std::holds_alternative<Blank>(item)) {
        out += "\n";
      } else if (const auto* marker = std::get_if<RoundMarker>(&item)) {
        out += round_marker_line(*marker) + "\n";
      } else if (std::holds_alternative<Cfi>(item)) {
        throw GenerationError(fmt::format("kernel {}, function {}: CFI has no place in Go code",
                                          program.kernel_name, function.symbol));
      }
    }
  }
  for (const QuadTable& table : program.tables) {
    out += "\n";
    append_comment_block(out, {table.comment});
    const std::string symbol = table_symbol(program, table.label);
    for (std::size_t i = 0; i < table.values.size(); ++i)
      out += fmt::format("DATA {}+{:#04x}(SB)/8, $0x{:016x}\n", symbol, 8 * i, table.values[i]);
    out += fmt::format("GLOBL {}(SB), NOPTR|RODATA, ${}\n", symbol, 8 * table.values.size());
  }
  return out;
}

std::string write_go_declarations(const Program& program, std::string_view package_name,
                                  std::string_view build_constraint) {
  std::string out = code_generated_header();
  out += fmt::format("\n//go:build {}\n\npackage {}\n", build_constraint, package_name);
  for (const Function& function : program.functions) {
    std::string parameters;
    for (const Parameter& parameter : function.shape.parameters) {
      if (!parameters.empty()) parameters += ", ";
      parameters += parameter.name + " " + go_type(parameter);
    }
    out += fmt::format("\n// {}\n//\n//go:noescape\nfunc {}({})\n", function.summary,
                       function.symbol, parameters);
  }
  return out;
}

}  // namespace spongegen::writers
