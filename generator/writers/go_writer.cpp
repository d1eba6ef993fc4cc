#include "writers/go_writer.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>

#include "isa/target.hpp"
#include "program/instruction_table.hpp"
#include "writers/gas_writer.hpp"

namespace spongegen::writers {
namespace {

constexpr std::size_t kCommentColumn = 48;

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

void go_refuse(const Program& program, const Function& function, const Instruction& instruction,
               const std::string& why) {
  throw GenerationError(fmt::format("kernel {}, function {}: `{}`: {}", program.kernel_name,
                                    function.symbol, format_instruction(program, instruction),
                                    why));
}

std::string go_table_symbol(const Program& program, LabelId label) {
  return program.label_names.at(label) + "<>";
}

std::string go_offset_text(std::int32_t disp) {
  return disp == 0 ? std::string() : fmt::format("{}", disp);
}

std::string format_go_instruction(const Program& program, const Function& function,
                                  const Instruction& instruction) {
  return target(program.isa).go_instruction(program, function, instruction);
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
    const std::string symbol = go_table_symbol(program, table.label);
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
