#include "writers/gas_writer.hpp"

#include <fmt/format.h>

#include "isa/amd64/win64_unwind.hpp"
#include "isa/target.hpp"
#include "program/instruction_table.hpp"

namespace spongegen::writers {
namespace {

constexpr std::size_t kCommentColumn = 48;

std::string format_operand(const Program& program, const Operand& operand) {
  return target(program.isa).gas_operand(program, operand);
}

void append_comment_block(std::string& out, const std::vector<std::string>& lines) {
  for (const std::string& line : lines) {
    out += line.empty() ? "//\n" : "// " + line + "\n";
  }
}

// The object format macros at the top of each file: the symbol prefix, local label prefix,
// .type/.size and visibility of Mach-O and ELF. amd64 files also assemble for Windows x64
// (COFF): there the System V functions keep their code and take the suffix _sysv, the Windows
// entries at the end of the file take the C names, and every function carries Windows unwind
// codes (SEH_*, empty elsewhere) beside its DWARF CFI.
std::string object_format_macros(Isa isa) {
  const std::string_view mach_o =
      "#define SYMBOL(name) _##name\n"
      "#define LOCAL(name) L##name\n"
      "#define HIDDEN(name) .private_extern name\n"
      "#define FUNCTION_TYPE(name)\n"
      "#define FUNCTION_SIZE(name)\n";
  const std::string_view elf =
      "#define SYMBOL(name) name\n"
      "#define LOCAL(name) .L##name\n"
      "#define HIDDEN(name) .hidden name\n"
      "#define FUNCTION_TYPE(name) .type name, @function\n"
      "#define FUNCTION_SIZE(name) .size name, . - name\n";
  if (!target(isa).has_win64_entries()) {
    return fmt::format("#if defined(__APPLE__)\n{}#else\n{}#endif\n", mach_o, elf);
  }
  const std::string_view windows =
      "#define SYMBOL(name) name##_sysv\n"
      "#define WIN64_SYMBOL(name) name\n"
      "#define LOCAL(name) .L##name\n"
      "#define HIDDEN(name)\n"
      "#define FUNCTION_TYPE(name) .def name; .scl 2; .type 32; .endef\n"
      "#define FUNCTION_SIZE(name)\n"
      "#define SEH_PROC(name) .seh_proc name\n"
      "#define SEH_PUSHREG(reg) .seh_pushreg reg\n"
      "#define SEH_STACKALLOC(bytes) .seh_stackalloc bytes\n"
      "#define SEH_SAVEXMM(reg, offset) .seh_savexmm reg, offset\n"
      "#define SEH_ENDPROLOGUE .seh_endprologue\n"
      "#define SEH_ENDPROC .seh_endproc\n";
  const std::string_view no_unwind_codes =
      "#define SEH_PROC(name)\n"
      "#define SEH_PUSHREG(reg)\n"
      "#define SEH_STACKALLOC(bytes)\n"
      "#define SEH_SAVEXMM(reg, offset)\n"
      "#define SEH_ENDPROLOGUE\n"
      "#define SEH_ENDPROC\n";
  return fmt::format(
      "#if defined(__APPLE__)\n{}#elif defined(_WIN32)\n{}#else\n{}#endif\n"
      "#if !defined(_WIN32)\n{}#endif\n",
      mach_o, windows, elf, no_unwind_codes);
}

std::string property_note(PropertyNote note) {
  if (note == PropertyNote::none) return {};
  const bool x86 = note == PropertyNote::x86_ibt_shstk;
  return fmt::format(
      "\t.section .note.gnu.property, \"a\"\n"
      "\t.p2align 3\n"
      "\t.long 4                 // name size\n"
      "\t.long 16                // descriptor size\n"
      "\t.long 5                 // NT_GNU_PROPERTY_TYPE_0\n"
      "\t.asciz \"GNU\"\n"
      "\t.long {}        // {}\n"
      "\t.long 4                 // property size\n"
      "\t.long 3                 // {}\n"
      "\t.long 0                 // padding to 8 bytes\n",
      x86 ? "0xc0000002" : "0xc0000000",
      x86 ? "GNU_PROPERTY_X86_FEATURE_1_AND" : "GNU_PROPERTY_AARCH64_FEATURE_1_AND",
      x86 ? "IBT | SHSTK" : "BTI | PAC");
}

}  // namespace

std::string local_label(const Program& program, LabelId id) {
  return fmt::format("LOCAL({})", program.label_names.at(id));
}

std::string round_marker_line(const RoundMarker& marker) {
  if (!marker.begin) return "\t// ---- end of round ----";
  if (!marker.in_loop) return fmt::format("\t// ---- round {} ----", marker.round);
  return fmt::format("\t// ---- round {} of the loop ----", marker.round);
}

std::string cfi_line(const Program& program, const Cfi& cfi) {
  auto reg_name = [&] { return format_operand(program, cfi.reg); };
  switch (cfi.kind) {
    case CfiKind::adjust_cfa_offset:
      return fmt::format(".cfi_adjust_cfa_offset {}", cfi.value);
    case CfiKind::def_cfa_offset:
      return fmt::format(".cfi_def_cfa_offset {}", cfi.value);
    case CfiKind::offset:
      return fmt::format(".cfi_offset {}, {}", reg_name(), cfi.value);
    case CfiKind::restore:
      return fmt::format(".cfi_restore {}", reg_name());
    case CfiKind::negate_ra_state:
      return ".cfi_negate_ra_state";
  }
  throw GenerationError("unknown CFI kind");
}

std::string format_instruction(const Program& program, const Instruction& instruction) {
  const InstructionSpec& spec = instruction_spec(instruction.mnemonic);
  std::string text(spec.text);
  // ld1r takes a register list: ld1r {v31.2d}, [x10], #8
  const bool list_first = spec.has(kRegisterList);
  for (std::size_t i = 0; i < instruction.operands.size(); ++i) {
    text += i == 0 ? " " : ", ";
    const std::string operand = format_operand(program, instruction.operands[i]);
    text += list_first && i == 0 ? "{" + operand + "}" : operand;
  }
  return text;
}

namespace {

// The items of one function: instructions, labels, comments, CFI, round markers. amd64
// functions also get their Windows unwind codes (SEH_*, empty outside Windows) after the
// prologue instructions they describe, between SEH_PROC(`symbol`) and SEH_ENDPROLOGUE.
void append_function_items(std::string& out, const Program& program, const Function& function,
                           const std::string& symbol) {
  const bool seh = target(program.isa).has_win64_entries();
  const Win64Prologue prologue = seh ? win64_prologue(function) : Win64Prologue{};
  if (seh) out += fmt::format("\tSEH_PROC({})\n", symbol);
  std::size_t next_code = 0;
  for (std::size_t i = 0; i < function.items.size(); ++i) {
    const Item& item = function.items[i];
    const bool is_instruction = std::holds_alternative<Instruction>(item);
    if (seh && (is_instruction || std::holds_alternative<LabelDef>(item))) {
      // The codes of the instructions before this one, then the end of the prologue.
      for (; next_code < prologue.codes.size() && prologue.codes[next_code].instruction_item < i;
           ++next_code) {
        out += fmt::format("\t{}\n", unwind_directive(prologue.codes[next_code]));
      }
      if (i == prologue.end_item) out += "\tSEH_ENDPROLOGUE\n";
    }
    if (const auto* instruction = std::get_if<Instruction>(&item)) {
      std::string line = fmt::format("\t{}", format_instruction(program, *instruction));
      if (!instruction->comment.empty()) {
        const std::size_t width = line.size() + 7;  // the tab counts as 8 columns
        line += std::string(width < kCommentColumn ? kCommentColumn - width : 1, ' ');
        line += "// " + instruction->comment;
      }
      out += line + "\n";
    } else if (const auto* label = std::get_if<LabelDef>(&item)) {
      out += local_label(program, label->id) + ":\n";
    } else if (const auto* comment = std::get_if<Comment>(&item)) {
      out += "\t// " + comment->text + "\n";
    } else if (std::holds_alternative<Blank>(item)) {
      out += "\n";
    } else if (const auto* cfi = std::get_if<Cfi>(&item)) {
      out += fmt::format("\t{}\n", cfi_line(program, *cfi));
    } else if (const auto* marker = std::get_if<RoundMarker>(&item)) {
      out += round_marker_line(*marker) + "\n";
    }
  }
  if (seh) {
    for (; next_code < prologue.codes.size(); ++next_code)
      out += fmt::format("\t{}\n", unwind_directive(prologue.codes[next_code]));
    if (prologue.end_item == function.items.size()) out += "\tSEH_ENDPROLOGUE\n";
  }
}

}  // namespace

std::vector<std::string> generated_file_notice() {
  return {
      "Code generated by spongegen. DO NOT EDIT.",
      "Regenerate with scripts/regen (spongegen generate --out generated).",
      "",
  };
}

std::string write_gas(const Program& program) {
  std::string out;
  append_comment_block(out, generated_file_notice());
  append_comment_block(out, program.header_lines);
  out += "\n";
  out += object_format_macros(program.isa);
  out += "\n";
  for (const std::string_view line : target(program.isa).gas_syntax_lines())
    out += fmt::format("\t{}\n", line);
  if (!program.arch_directive.empty()) {
    out += fmt::format("\t{}\n", target(program.isa).gas_arch_line(program.arch_directive));
  }
  out += "\t.text\n";

  for (const Function& function : program.functions) {
    out += "\n";
    append_comment_block(out, {function.summary, c_prototype(function.symbol, function.shape),
                               std::string(kEntryShapePrefix) + entry_shape_line(function.shape)});
    out +=
        fmt::format("\t.globl SYMBOL({0})\n\tHIDDEN(SYMBOL({0}))\n\tFUNCTION_TYPE(SYMBOL({0}))\n",
                    function.symbol);
    out += "\t.p2align 5\n";
    out += fmt::format("SYMBOL({}):\n", function.symbol);
    out += "\t.cfi_startproc\n";
    append_function_items(out, program, function, fmt::format("SYMBOL({})", function.symbol));
    out += "\t.cfi_endproc\n";
    if (target(program.isa).has_win64_entries()) out += "\tSEH_ENDPROC\n";
    out += fmt::format("\tFUNCTION_SIZE(SYMBOL({}))\n", function.symbol);
  }

  for (const QuadTable& table : program.tables) {
    out += "\n";
    append_comment_block(out, {table.comment});
    out += "\t.p2align 6\n";
    out += local_label(program, table.label) + ":\n";
    for (std::uint64_t value : table.values)
      out += fmt::format("\t.quad 0x{:016x}\n", value);
  }

  if (!program.win64_entries.empty()) {
    out += "\n#if defined(_WIN32)\n";
    for (const Function& entry : program.win64_entries) {
      out += "\n";
      append_comment_block(out, {entry.summary, c_prototype(entry.symbol, entry.shape)});
      out += fmt::format("\t.globl WIN64_SYMBOL({0})\n\tFUNCTION_TYPE(WIN64_SYMBOL({0}))\n",
                         entry.symbol);
      out += "\t.p2align 4\n";
      out += fmt::format("WIN64_SYMBOL({}):\n", entry.symbol);
      append_function_items(out, program, entry, fmt::format("WIN64_SYMBOL({})", entry.symbol));
      out += "\tSEH_ENDPROC\n";
    }
    out += "#endif\n";
  }

  out += "\n#if defined(__ELF__)\n";
  out += "\t.section .note.GNU-stack, \"\", @progbits\n";
  out += property_note(program.property_note);
  out += "#endif\n";
  return out;
}

}  // namespace spongegen::writers
